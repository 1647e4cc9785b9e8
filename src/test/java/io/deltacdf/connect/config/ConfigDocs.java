package io.deltacdf.connect.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Renders a {@link ConfigDef} as the Markdown configuration reference, docs/configuration.md, which
 * {@link ConfigDocsTest} keeps current.
 */
final class ConfigDocs {

  private ConfigDocs() {}

  static String markdown(ConfigDef def) {
    Map<String, List<ConfigDef.ConfigKey>> byGroup = new LinkedHashMap<>();
    for (ConfigDef.ConfigKey key : def.configKeys().values()) {
      if (key.internalConfig) {
        continue;
      }
      byGroup.computeIfAbsent(key.group, g -> new ArrayList<>()).add(key);
    }
    StringBuilder out = new StringBuilder();
    out.append("# Configuration reference\n\n")
        .append("Generated from the connector's `ConfigDef` by `ConfigDocsTest`; do not edit by")
        .append(" hand (regenerate with `mvn test -Dtest=ConfigDocsTest -Ddocs.update=true`).\n\n")
        .append("Besides these keys, every `")
        .append(DeltaCdfSourceConfig.HADOOP_PREFIX)
        .append("*` setting is passed, without the prefix, to the Hadoop file system that")
        .append(" reads the tables (for example `hadoop.fs.s3a.endpoint`).\n");
    byGroup.forEach(
        (group, keys) -> {
          out.append("\n## ").append(group).append("\n\n");
          keys.sort((a, b) -> Integer.compare(a.orderInGroup, b.orderInGroup));
          for (ConfigDef.ConfigKey key : keys) {
            out.append("### `").append(key.name).append("`\n\n");
            out.append(key.documentation).append("\n\n");
            out.append("- Display name: ").append(key.displayName).append('\n');
            out.append("- Type: ").append(key.type.name().toLowerCase()).append('\n');
            out.append("- Default: ").append(defaultText(key)).append('\n');
            validValues(key)
                .ifPresent(values -> out.append("- Valid values: ").append(values).append('\n'));
            out.append("- Importance: ").append(key.importance.name().toLowerCase()).append("\n\n");
          }
        });
    return out.toString();
  }

  /** Every validator describes itself (see Validators.described); booleans need none. */
  private static Optional<String> validValues(ConfigDef.ConfigKey key) {
    if (key.validator != null) {
      return Optional.of(key.validator.toString());
    }
    return key.type == ConfigDef.Type.BOOLEAN ? Optional.of("true, false") : Optional.empty();
  }

  private static String defaultText(ConfigDef.ConfigKey key) {
    if (!key.hasDefault()) {
      return "none (required)";
    }
    if (key.defaultValue == null) {
      return "unset";
    }
    String text = ConfigDef.convertToString(key.defaultValue, key.type);
    return text.isEmpty() ? "empty" : "`" + text + "`";
  }
}
