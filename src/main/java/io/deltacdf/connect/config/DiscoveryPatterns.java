package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLES_EXCLUDE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLES_INCLUDE;

import io.deltacdf.connect.change.ColumnPatterns;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;

/**
 * Which tables found below a root are streamed: delta.tables.include.list and .exclude.list,
 * compiled once, since every rescan matches every table.
 */
final class DiscoveryPatterns {

  private final List<Pattern> include;
  private final List<Pattern> exclude;

  DiscoveryPatterns(AbstractConfig config) {
    include = compiled(config, TABLES_INCLUDE);
    exclude = compiled(config, TABLES_EXCLUDE);
  }

  /** Whether a table found at {@code relativePath} below a root is streamed. */
  boolean discovers(String relativePath) {
    if (!include.isEmpty() && !matchesAny(include, relativePath)) {
      return false;
    }
    return !matchesAny(exclude, relativePath);
  }

  private static List<Pattern> compiled(AbstractConfig config, String key) {
    return config.getList(key).stream()
        .map(String::trim)
        .filter(e -> !e.isEmpty())
        .map(ColumnPatterns::compile)
        .toList();
  }

  private static boolean matchesAny(List<Pattern> patterns, String text) {
    return patterns.stream().anyMatch(p -> p.matcher(text).matches());
  }
}
