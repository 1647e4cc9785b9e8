package io.deltacdf.connect.config;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/** Lists the start modes, so UIs built on the Connect REST API can offer them. */
final class StartModeRecommender implements ConfigDef.Recommender {

  @Override
  public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
    return Arrays.stream(StartMode.values()).map(m -> (Object) m.configValue()).toList();
  }

  @Override
  public boolean visible(String name, Map<String, Object> parsedConfig) {
    return true;
  }
}
