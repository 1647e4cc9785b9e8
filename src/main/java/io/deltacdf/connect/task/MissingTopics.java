package io.deltacdf.connect.task;

/**
 * How a topic that may be missing is named, with the setting behind it, and its fixes, wherever the
 * task finds one missing.
 *
 * @param transactionTopic the topic of BEGIN and END events; null when provide.transaction.metadata
 *     is off
 */
record MissingTopics(String heartbeatTopic, String transactionTopic) {

  /** The topic, with the setting that names it when it is not a table's. */
  String describe(String topic) {
    if (topic.equals(heartbeatTopic)) {
      return "Heartbeat topic '" + topic + "' (setting heartbeat.topic)";
    }
    if (topic.equals(transactionTopic)) {
      return "Transaction metadata topic '"
          + topic
          + "' (setting topic.transaction, written as provide.transaction.metadata=true)";
    }
    return "Topic '" + topic + "'";
  }

  /** What to do about it. */
  String fixes(String topic) {
    return "Either create the topic"
        + (topic.equals(heartbeatTopic) ? " (one partition, cleanup.policy=compact)" : "")
        + (topic.equals(transactionTopic) ? " (one partition, not compacted)" : "")
        + ", or let Connect create missing topics by adding"
        + " topic.creation.default.replication.factor and topic.creation.default.partitions to"
        + " the connector's config (see config-examples/); then restart the task.";
  }
}
