package io.deltacdf.connect.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.DeltaCdfSourceConnector;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.task.TaskSettings;
import io.deltacdf.connect.task.TaskUnit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A connector configuration for tests: the connector class, one task, the tables and the topic
 * creation settings every config example carries, plus what a test names. Replaces the map each
 * test used to build by hand.
 */
public final class ConnectorConfig {

  /** The example whose topic creation settings every test config carries. */
  private static final String TOPIC_CREATION_EXAMPLE = "local-table.json";

  private final Map<String, String> settings = new LinkedHashMap<>();

  private ConnectorConfig() {}

  private ConnectorConfig(String tablePaths) {
    settings.put("connector.class", DeltaCdfSourceConnector.class.getName());
    settings.put("tasks.max", "1");
    if (tablePaths != null) {
      settings.put("delta.table.paths", tablePaths);
    }
    settings.putAll(topicCreation());
  }

  /**
   * The topic.creation.* settings of the config examples: the test brokers, like managed Kafka
   * services, create no topic on first use, so Connect creates the topics a connector writes, the
   * heartbeat topic among them, as it does for a user who copied an example.
   */
  public static Map<String, String> topicCreation() {
    Map<String, String> creation = new LinkedHashMap<>();
    example(TOPIC_CREATION_EXAMPLE)
        .forEach(
            (key, value) -> {
              if (key.startsWith("topic.creation.")) {
                creation.put(key, value);
              }
            });
    return creation;
  }

  /** config-examples/{@code file} exactly as a user copies it: nothing added. */
  public static ConnectorConfig fromExample(String file) {
    ConnectorConfig config = new ConnectorConfig();
    config.settings.putAll(example(file));
    return config;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> example(String file) {
    try {
      return new ObjectMapper().readValue(Path.of("config-examples", file).toFile(), Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Leaves the topics to the test, which creates them itself as a user would. */
  public ConnectorConfig withoutTopicCreation() {
    settings.keySet().removeIf(key -> key.startsWith("topic.creation."));
    return this;
  }

  /** One task reading {@code tablePaths} (comma-separated), with every other setting default. */
  public static ConnectorConfig forTables(String tablePaths) {
    return new ConnectorConfig(tablePaths);
  }

  /** A config that names no table, for what validation says about that. */
  public static ConnectorConfig withoutTables() {
    return new ConnectorConfig(null);
  }

  /** The connector's name, which names its tasks' metrics and log lines. */
  public ConnectorConfig name(String name) {
    return with("name", name);
  }

  public ConnectorConfig tasksMax(int tasks) {
    return with("tasks.max", Integer.toString(tasks));
  }

  public ConnectorConfig topicTemplate(String template) {
    return with("topic.template", template);
  }

  public ConnectorConfig keyColumns(String columns) {
    return with("key.columns", columns);
  }

  public ConnectorConfig startMode(String mode) {
    return with("start.mode", mode);
  }

  public ConnectorConfig pollIntervalMs(long ms) {
    return with("poll.interval.ms", Long.toString(ms));
  }

  /** Exactly-once delivery, with transactions that the connector bounds at commit versions. */
  public ConnectorConfig exactlyOnce() {
    return with("exactly.once.support", "required").with("transaction.boundary", "connector");
  }

  public ConnectorConfig with(String key, String value) {
    settings.put(key, value);
    return this;
  }

  /** Each pair of {@code keyValues} is a key and its value. */
  public ConnectorConfig with(String... keyValues) {
    for (int i = 0; i < keyValues.length; i += 2) {
      settings.put(keyValues[i], keyValues[i + 1]);
    }
    return this;
  }

  public ConnectorConfig withAll(Map<String, String> more) {
    settings.putAll(more);
    return this;
  }

  /** The settings, as a map the test may still change. */
  public Map<String, String> build() {
    return new HashMap<>(settings);
  }

  /**
   * The settings of a task that reads every table whole, as the connector hands them out without a
   * parallel snapshot.
   */
  public Map<String, String> buildTask() {
    Map<String, String> connector = build();
    List<TaskUnit> units =
        new DeltaCdfSourceConfig(connector).tablePaths().stream().map(TaskUnit::table).toList();
    return TaskSettings.forUnits(connector, units);
  }
}
