package io.deltacdf.connect.config;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * Finds settings that neither this connector nor the Connect framework reads, which are almost
 * always typos ({@code start.mod}) or habits from other connectors ({@code time.precision.mode}):
 * left alone, they would be ignored without a word.
 */
public final class UnknownKeys {

  /** Keys the Connect worker itself reads from a source connector's config (Kafka 3.9 - 4.4). */
  private static final Set<String> FRAMEWORK_KEYS =
      Set.of(
          "name",
          "connector.class",
          "connector.plugin.version",
          "tasks.max",
          "tasks.max.enforce",
          "key.converter",
          "value.converter",
          "header.converter",
          "config.action.reload",
          "transforms",
          "predicates",
          "exactly.once.support",
          "transaction.boundary",
          "transaction.boundary.interval.ms",
          "offsets.storage.topic");

  /** Families of framework keys: converter and transform settings, client overrides and so on. */
  private static final Set<String> FRAMEWORK_PREFIXES =
      Set.of(
          "key.converter.",
          "value.converter.",
          "header.converter.",
          "transforms.",
          "predicates.",
          "errors.",
          "topic.creation.",
          "producer.override.",
          "consumer.override.",
          "admin.override.");

  /** What validation does with an unknown setting (config.unknown.keys). */
  public enum Policy {
    /** Report it as an error on its key. */
    FAIL,
    /** Accept it. */
    IGNORE
  }

  static void define(ConfigDef def, String group) {
    def.define(
        DeltaCdfSourceConfig.UNKNOWN_KEYS,
        Type.STRING,
        EnumSettings.valueOf(Policy.FAIL),
        Validators.oneOf(Policy.class),
        Importance.LOW,
        "What validation does with a setting that neither this connector nor Connect reads"
            + " (a typo such as start.mod, or another connector's key such as"
            + " time.precision.mode): fail = report it as an error on that key, with the closest"
            + " known key as a suggestion, so the connector is not created; ignore = accept it."
            + " Connect's own keys (converters, transforms.*, predicates.*, errors.*,"
            + " topic.creation.*, producer.override.*, exactly.once.support, ...), hadoop.* and"
            + " topic.check.admin.* are always known.",
        group,
        1,
        Width.SHORT,
        "Unknown settings");
  }

  private UnknownKeys() {}

  /**
   * For each setting in {@code settings} that is unknown, the message to report on it, with the
   * closest known key as a suggestion when one is close enough to be a likely typo. None when the
   * settings say {@code config.unknown.keys=ignore}.
   */
  public static Map<String, String> find(Map<String, String> settings) {
    String policy = settings.get(DeltaCdfSourceConfig.UNKNOWN_KEYS);
    if (policy != null && policy.trim().equalsIgnoreCase(EnumSettings.valueOf(Policy.IGNORE))) {
      return Map.of();
    }
    Set<String> ownKeys = DeltaCdfSourceConfig.configDef().names();
    Map<String, String> unknown = new LinkedHashMap<>();
    for (String key : new TreeSet<>(settings.keySet())) {
      if (!isKnown(key, ownKeys)) {
        unknown.put(key, message(key, ownKeys));
      }
    }
    return unknown;
  }

  private static boolean isKnown(String key, Set<String> ownKeys) {
    return ownKeys.contains(key)
        || FRAMEWORK_KEYS.contains(key)
        || key.startsWith(DeltaCdfSourceConfig.HADOOP_PREFIX)
        || key.startsWith(TopicCheckSettings.ADMIN_PREFIX)
        || key.startsWith(OperationsSettings.SIGNAL_CONSUMER_PREFIX)
        || FRAMEWORK_PREFIXES.stream().anyMatch(key::startsWith);
  }

  private static String message(String key, Set<String> ownKeys) {
    String hint = closest(key, ownKeys).map(known -> ": did you mean '" + known + "'?").orElse(".");
    return "Unknown setting '"
        + key
        + "'"
        + hint
        + " Neither this connector nor Connect reads it, so it would have no effect (set "
        + DeltaCdfSourceConfig.UNKNOWN_KEYS
        + "=ignore to accept unknown settings).";
  }

  /** The known key fewest edits away, if a third of its length or fewer (at least two). */
  private static Optional<String> closest(String key, Set<String> ownKeys) {
    return Stream.concat(ownKeys.stream(), FRAMEWORK_KEYS.stream())
        .map(known -> Map.entry(known, editDistance(key, known)))
        .filter(e -> e.getValue() <= Math.max(2, e.getKey().length() / 3))
        .min(
            Comparator.comparing(Map.Entry<String, Integer>::getValue)
                .thenComparing(Map.Entry::getKey))
        .map(Map.Entry::getKey);
  }

  /** Levenshtein distance: insertions, deletions and substitutions of single characters. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
