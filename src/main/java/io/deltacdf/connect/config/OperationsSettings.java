package io.deltacdf.connect.config;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * Steering a running connector, with Debezium's setting names: a Kafka topic of signals (ad-hoc
 * snapshots, pauses) and the channels notifications go to (a topic, the log, JMX).
 */
public final class OperationsSettings {

  public static final String SIGNAL_CHANNELS = "signal.enabled.channels";
  public static final String SIGNAL_TOPIC = "signal.kafka.topic";
  public static final String SIGNAL_BOOTSTRAP_SERVERS = "signal.kafka.bootstrap.servers";

  /** Settings under this prefix go to the signal consumer as they are (security, timeouts). */
  public static final String SIGNAL_CONSUMER_PREFIX = "signal.consumer.";

  public static final String NOTIFICATION_CHANNELS = "notification.enabled.channels";
  public static final String NOTIFICATION_TOPIC = "notification.sink.topic.name";

  /** The signal channel: a Kafka topic. */
  public static final String KAFKA_CHANNEL = "kafka";

  /** Notification channels: a topic the task writes through Connect, the log, a JMX bean. */
  public enum NotificationChannel {
    SINK,
    LOG,
    JMX
  }

  private static final String GROUP = "Signals and notifications";

  private OperationsSettings() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        SIGNAL_CHANNELS,
        Type.LIST,
        "",
        Validators.optionalSubsetOf(List.of(KAFKA_CHANNEL)),
        Importance.LOW,
        "The channels signals are read from; 'kafka' reads them from "
            + SIGNAL_TOPIC
            + ". A signal is a record whose key is the connector's name and whose value is a JSON"
            + " object {\"id\": ..., \"type\": ..., \"data\": {...}}, as in Debezium. Types:"
            + " execute-snapshot (data: data-collections, the tables, and optionally"
            + " additional-conditions, [{\"data-collection\": <table>, \"filter\": <row.filter"
            + " syntax>}]), stop-snapshot (data-collections), pause and resume (data-collections)."
            + " Each table's offsets record the signals it has acted on, so a signal is done once,"
            + " also across restarts and rebalances. Empty: no signals.",
        GROUP,
        ++order,
        Width.SHORT,
        "Signal channels");
    def.define(
        SIGNAL_TOPIC,
        Type.STRING,
        "",
        Importance.LOW,
        "The topic signals are read from, with one partition so that signals keep their order."
            + " It is read from start to end by every task, without a consumer group; signals"
            + " keyed with another connector's name are left to that connector.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Signal topic");
    def.define(
        SIGNAL_BOOTSTRAP_SERVERS,
        Type.STRING,
        "",
        Importance.LOW,
        "The Kafka cluster of "
            + SIGNAL_TOPIC
            + ". The consumer's other settings (security.protocol, sasl.*, ssl.*) go under "
            + SIGNAL_CONSUMER_PREFIX
            + "*.",
        GROUP,
        ++order,
        Width.LONG,
        "Signal bootstrap servers");
    def.define(
        NOTIFICATION_CHANNELS,
        Type.LIST,
        "",
        Validators.optionalSubsetOf(List.of("sink", "log", "jmx")),
        Importance.LOW,
        "Where notifications go: 'sink' to "
            + NOTIFICATION_TOPIC
            + ", 'log' to the worker log, 'jmx' to the task's notifications MBean"
            + " (io.deltacdf.connect:type=notifications,connector=<name>,task=<n>). A notification"
            + " has Debezium's fields: id, aggregate_type, type, additional_data (a map of strings)"
            + " and timestamp. Snapshots (started, in progress, completed, aborted), signals"
            + " (accepted, rejected), tables paused and resumed, and tables found, re-created or"
            + " gone are notified. Empty: none.",
        GROUP,
        ++order,
        Width.SHORT,
        "Notification channels");
    def.define(
        NOTIFICATION_TOPIC,
        Type.STRING,
        "",
        Importance.LOW,
        "The topic notifications go to with the 'sink' channel. Like heartbeat.topic, it must"
            + " exist on a cluster that creates no topics, or be created by Connect's topic"
            + " creation. Key: struct {id}.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Notification topic");
  }

  /** The signal consumer's settings, or null when no signal channel is enabled. */
  public static Map<String, Object> signalConsumer(AbstractConfig config) {
    if (!kafkaSignals(config)) {
      return null;
    }
    Map<String, Object> settings =
        new HashMap<>(config.originalsWithPrefix(SIGNAL_CONSUMER_PREFIX));
    settings.put("bootstrap.servers", config.getString(SIGNAL_BOOTSTRAP_SERVERS));
    settings.putIfAbsent("client.id", "delta-cdf-signals");
    settings.put("enable.auto.commit", "false");
    settings.remove("group.id"); // read without a group: each table's offsets say what was done
    return settings;
  }

  /** Whether signals are read from the Kafka topic ('kafka' in any case). */
  private static boolean kafkaSignals(AbstractConfig config) {
    return config.getList(SIGNAL_CHANNELS).stream()
        .anyMatch(channel -> channel.trim().equalsIgnoreCase(KAFKA_CHANNEL));
  }

  /** The channels notifications go to. */
  public static Set<NotificationChannel> notificationChannels(AbstractConfig config) {
    Set<NotificationChannel> channels = new LinkedHashSet<>();
    for (String channel : config.getList(NOTIFICATION_CHANNELS)) {
      if (!channel.isBlank()) {
        channels.add(NotificationChannel.valueOf(channel.trim().toUpperCase(Locale.ROOT)));
      }
    }
    return channels;
  }

  /** A signal channel without its topic or cluster; a sink without its topic. */
  static void problems(AbstractConfig config, Map<String, List<String>> problems) {
    if (kafkaSignals(config)) {
      for (String key : List.of(SIGNAL_TOPIC, SIGNAL_BOOTSTRAP_SERVERS)) {
        if (config.getString(key).isBlank()) {
          DeltaCdfSourceConfig.add(
              problems,
              key,
              "The 'kafka' signal channel ("
                  + SIGNAL_CHANNELS
                  + ") reads its signals through "
                  + SIGNAL_TOPIC
                  + " on "
                  + SIGNAL_BOOTSTRAP_SERVERS
                  + ": set "
                  + key
                  + ", or remove 'kafka' from "
                  + SIGNAL_CHANNELS);
        }
      }
    }
    if (notificationChannels(config).contains(NotificationChannel.SINK)
        && config.getString(NOTIFICATION_TOPIC).isBlank()) {
      DeltaCdfSourceConfig.add(
          problems,
          NOTIFICATION_TOPIC,
          "The 'sink' notification channel ("
              + NOTIFICATION_CHANNELS
              + ") writes to "
              + NOTIFICATION_TOPIC
              + ": name the topic, or remove 'sink' from "
              + NOTIFICATION_CHANNELS);
    }
  }
}
