package io.deltacdf.connect.task;

/** How a missing topic is named, and its fixes, wherever the task finds one. */
final class MissingTopics {

  private MissingTopics() {}

  /** The topic, with the setting that names it when it is the heartbeat topic. */
  static String describe(String topic, String heartbeatTopic) {
    return topic.equals(heartbeatTopic)
        ? "Heartbeat topic '" + topic + "' (setting heartbeat.topic)"
        : "Topic '" + topic + "'";
  }

  /** What to do about it. */
  static String fixes(String topic, String heartbeatTopic) {
    return "Either create the topic"
        + (topic.equals(heartbeatTopic) ? " (one partition, cleanup.policy=compact)" : "")
        + ", or let Connect create missing topics by adding"
        + " topic.creation.default.replication.factor and topic.creation.default.partitions to"
        + " the connector's config (see config-examples/); then restart the task.";
  }
}
