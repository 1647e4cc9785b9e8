package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.HADOOP_PREFIX;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Every secret value configured, so messages can be checked for leaks before they leave: the
 * PASSWORD settings, Azure account credentials, and the hadoop.* and topic.check.admin.*
 * pass-through settings whose name marks them as secret.
 */
final class SecretValues {

  private static final Pattern SECRET_HADOOP_KEY =
      Pattern.compile("(?i)(secret|password|token|credential|\\.key(\\.|$)|account\\.key|sas)");

  private SecretValues() {}

  /** The secrets {@code config} holds, its settings defined by {@code def}. */
  static List<String> of(AbstractConfig config, ConfigDef def) {
    List<String> secrets = new ArrayList<>();
    for (ConfigDef.ConfigKey key : def.configKeys().values()) {
      if (key.type == Type.PASSWORD && config.getPassword(key.name) != null) {
        secrets.add(config.getPassword(key.name).value());
      }
    }
    secrets.addAll(AzureAccountCredentials.secrets(config));
    config
        .originalsWithPrefix(HADOOP_PREFIX)
        .forEach(
            (key, value) -> {
              if (SECRET_HADOOP_KEY.matcher(key).find() && value != null) {
                secrets.add(String.valueOf(value));
              }
            });
    for (String prefix :
        List.of(TopicCheckSettings.ADMIN_PREFIX, OperationsSettings.SIGNAL_CONSUMER_PREFIX)) {
      config
          .originalsWithPrefix(prefix)
          .forEach(
              (key, value) -> {
                if (TopicCheckSettings.secret(key) && value != null) {
                  secrets.add(String.valueOf(value));
                }
              });
    }
    return secrets;
  }
}
