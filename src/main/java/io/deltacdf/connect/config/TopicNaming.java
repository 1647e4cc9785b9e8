package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.HEARTBEAT_TOPIC;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TOPIC_TEMPLATE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TRANSACTION_TOPIC;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of the topics: a table's from topic.template, the heartbeats' from heartbeat.topic, the
 * transaction events' from topic.transaction.
 */
final class TopicNaming {

  static final String TABLE_PLACEHOLDER = "${table}";
  static final String PATH_PLACEHOLDER = "${path}";
  static final String SCHEMA_PLACEHOLDER = "${schema}";
  static final String CONNECTOR_PLACEHOLDER = "${connector}";

  private TopicNaming() {}

  /**
   * The topic of {@code tablePath}: the template with {@code ${table}} the last segment of its
   * path, {@code ${path}} its path below the root it was found under (segments joined by '.'; the
   * last segment for a table named in delta.table.paths), and {@code ${schema}} the folder it is in
   * (see {@link TableNames#schemaOf}).
   */
  static String topicFor(DeltaCdfSourceConfig config, String tablePath) {
    String relative = TableNames.relativePath(tablePath, config.tableRoots());
    return config
        .getString(TOPIC_TEMPLATE)
        .replace(TABLE_PLACEHOLDER, TableNames.topicSafe(TableNames.nameOf(tablePath)))
        .replace(PATH_PLACEHOLDER, TableNames.topicSafe(relative.replace('/', '.')))
        .replace(SCHEMA_PLACEHOLDER, TableNames.topicSafe(TableNames.schemaOf(relative)));
  }

  /** The heartbeat topic of the connector named {@code connectorName}. */
  static String heartbeatTopic(DeltaCdfSourceConfig config, String connectorName) {
    return connectorTopic(config.getString(HEARTBEAT_TOPIC), connectorName);
  }

  /** The transaction metadata topic of the connector named {@code connectorName}. */
  static String transactionTopic(DeltaCdfSourceConfig config, String connectorName) {
    return connectorTopic(config.getString(TRANSACTION_TOPIC), connectorName);
  }

  private static String connectorTopic(String template, String connectorName) {
    return template.replace(
        CONNECTOR_PLACEHOLDER, connectorName.replaceAll("[^a-zA-Z0-9._-]", "_"));
  }

  /**
   * Named tables whose topics collide (tables found under roots are checked as they are found), and
   * a transaction topic that is the heartbeat topic or a named table's.
   */
  static void problems(DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    transactionTopicProblems(config, problems);
    Map<String, String> tableByTopic = new HashMap<>();
    for (String table : config.namedTables()) {
      String previous = tableByTopic.putIfAbsent(topicFor(config, table), table);
      if (previous != null) {
        DeltaCdfSourceConfig.add(
            problems,
            TOPIC_TEMPLATE,
            "Tables "
                + previous
                + " and "
                + table
                + " would both write to topic '"
                + topicFor(config, table)
                + "': tables must have distinct last path segments, or use a topic.template"
                + " that tells them apart");
      }
    }
  }

  private static void transactionTopicProblems(
      DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    if (!config.provideTransactionMetadata()) {
      return;
    }
    String connectorName = String.valueOf(config.originals().getOrDefault("name", "delta-cdf"));
    String topic = transactionTopic(config, connectorName);
    String clash =
        topic.equals(heartbeatTopic(config, connectorName))
            ? "the heartbeat topic (" + HEARTBEAT_TOPIC + ")"
            : config.namedTables().stream()
                .filter(table -> topicFor(config, table).equals(topic))
                .map(table -> "the topic of table " + table)
                .findFirst()
                .orElse(null);
    if (clash != null) {
      DeltaCdfSourceConfig.add(
          problems,
          TRANSACTION_TOPIC,
          "Transaction metadata topic '"
              + topic
              + "' is also "
              + clash
              + ": BEGIN and END events need a topic of their own; choose another "
              + TRANSACTION_TOPIC);
    }
  }
}
