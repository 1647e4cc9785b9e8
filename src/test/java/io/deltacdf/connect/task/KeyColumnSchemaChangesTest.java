package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.DeltaCdfSourceConnector;
import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Key columns across schema changes under column mapping: a renamed key column keeps keying the
 * rows by the configured name, a dropped one stops the task with the version and the way out.
 */
class KeyColumnSchemaChangesTest {

  @TempDir Path dir;

  private static void createTable(String path) {
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.columnMapping.mode'='name')",
        path);
  }

  private static Map<String, String> settings(String path, String keyColumns) {
    return ConnectorConfig.forTables(path)
        .name("keys-" + keyColumns)
        .startMode("earliest")
        .keyColumns(keyColumns)
        .pollIntervalMs(50)
        .with("heartbeat.interval.ms", "0")
        .buildTask();
  }

  @Test
  void aRenamedKeyColumnKeysEveryRowByTheConfiguredName() throws Exception {
    String path = dir.resolve("renamed").toString();
    createTable(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path); // v1

    SimulatedWorker running = new SimulatedWorker(false);
    running.start(settings(path, "id"));
    List<SourceRecord> beforeRename = running.poll(5);
    assertThat(keys(beforeRename, "id")).containsExactly(1L, 2L);

    // Renamed while the task runs, then read by it, and after a restart from its offsets.
    sql("ALTER TABLE delta.`%s` RENAME COLUMN id TO user_id", path); // v2
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path); // v3
    List<SourceRecord> afterRename = running.poll(5);
    sql("UPDATE delta.`%s` SET name = 'bb' WHERE user_id = 2", path); // v4
    running.stop();
    running.start(settings(path, "id"));
    afterRename.addAll(running.poll(5));
    running.stop();
    assertThat(keys(afterRename, "id")).containsExactly(3L, 2L, 2L);
    assertThat(((Struct) afterRename.get(0).value()).getInt64("user_id")).isEqualTo(3L);

    // A connector created after the rename, by the old name or by the new one.
    for (String keyColumn : List.of("id", "user_id")) {
      SimulatedWorker fresh = new SimulatedWorker(false);
      fresh.start(settings(path, keyColumn));
      List<SourceRecord> all = fresh.poll(10);
      fresh.stop();
      assertThat(keys(all, keyColumn)).as(keyColumn).containsExactly(1L, 2L, 3L, 2L, 2L);
      assertThat(((Struct) all.get(0).value()).getInt64("id")).isEqualTo(1L);
      assertThat(((Struct) all.get(4).value()).getString("name")).isEqualTo("bb");
    }
  }

  @Test
  void aDroppedKeyColumnFailsNamingTheVersionAndTheWayOut() throws Exception {
    String path = dir.resolve("dropped").toString();
    createTable(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    sql("ALTER TABLE delta.`%s` DROP COLUMN id", path); // v2
    sql("INSERT INTO delta.`%s` VALUES ('b')", path); // v3

    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings(path, "id"));
    ConnectException failure = worker.pollUntilFailed(5);
    worker.stop();
    assertThat(failure.getMessage())
        .contains("Key column 'id'", path, "dropped at version 2", "key.columns", "offsets");

    Map<String, ConfigValue> validated = new java.util.HashMap<>();
    new DeltaCdfSourceConnector()
        .validate(settings(path, "id"))
        .configValues()
        .forEach(value -> validated.put(value.name(), value));
    assertThat(validated.get("key.columns").errorMessages())
        .anySatisfy(message -> assertThat(message).contains("dropped at version 2"));
  }

  /** The key field {@code field} of each record that has a value (tombstones left out). */
  private static List<Long> keys(List<SourceRecord> records, String field) {
    return records.stream()
        .filter(record -> record.value() != null)
        .map(record -> ((Struct) record.key()).getInt64(field))
        .toList();
  }
}
