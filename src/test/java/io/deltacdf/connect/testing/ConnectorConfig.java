package io.deltacdf.connect.testing;

import io.deltacdf.connect.DeltaCdfSourceConnector;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A connector configuration for tests: the connector class, one task and the tables, plus what
 * a test names. Replaces the map each test used to build by hand.
 */
public final class ConnectorConfig {

  private final Map<String, String> settings = new LinkedHashMap<>();

  private ConnectorConfig(String tablePaths) {
    settings.put("connector.class", DeltaCdfSourceConnector.class.getName());
    settings.put("tasks.max", "1");
    settings.put("delta.table.paths", tablePaths);
  }

  /** One task reading {@code tablePaths} (comma-separated), with every other setting default. */
  public static ConnectorConfig forTables(String tablePaths) {
    return new ConnectorConfig(tablePaths);
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
}
