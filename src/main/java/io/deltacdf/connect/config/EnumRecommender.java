package io.deltacdf.connect.config;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/** Lists an enum-valued setting's values, so UIs built on the Connect REST API can offer them. */
final class EnumRecommender implements ConfigDef.Recommender {

  private final List<Object> values;

  <E extends Enum<E>> EnumRecommender(Class<E> type) {
    this.values = List.copyOf(EnumSettings.values(type));
  }

  @Override
  public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
    return values;
  }

  @Override
  public boolean visible(String name, Map<String, Object> parsedConfig) {
    return true;
  }
}
