package io.deltacdf.connect;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.task.TableMetrics;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.StoredOffsets;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task's poll loop: bounded batches, a short wait when idle, new commits picked up. */
class DeltaCdfSourceTaskTest {

  @TempDir Path dir;

  @Test
  void pollReturnsBoundedBatchesThenWaitsBrieflyWhenCaughtUp() throws Exception {
    String path = dir.resolve("polled").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` SELECT id, 'n' FROM range(0, 25)", path);

    DeltaCdfSourceTask task = new DeltaCdfSourceTask();
    task.initialize(new StoredOffsetsContext(new StoredOffsets()));
    task.start(
        ConnectorConfig.forTables(path)
            .name("polled")
            .with("batch.max.rows", "10")
            .pollIntervalMs(60000)
            .buildTask());
    ObjectName metrics = TableMetrics.objectName("polled", path);
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    try {
      List<SourceRecord> all = new ArrayList<>();
      List<SourceRecord> batch;
      while ((batch = task.poll()) != null) {
        assertThat(batch).hasSizeLessThanOrEqualTo(10);
        all.addAll(batch);
      }
      assertThat(all).hasSize(25);

      long started = System.nanoTime();
      assertThat(task.poll()).isNull();
      long waitedMs = (System.nanoTime() - started) / 1_000_000;
      assertThat(waitedMs).isLessThan(1_000);

      assertThat(jmx.getAttribute(metrics, "RowsInserted")).isEqualTo(25L);
      assertThat(jmx.getAttribute(metrics, "LastVersion")).isEqualTo(1L);
      assertThat(jmx.getAttribute(metrics, "LatestTableVersion")).isEqualTo(1L);
      assertThat(jmx.getAttribute(metrics, "VersionsBehind")).isEqualTo(0L);
      assertThat(jmx.getAttribute(metrics, "CommitLagMs")).isEqualTo(0L);
      long files = (Long) jmx.getAttribute(metrics, "SnapshotFilesTotal");
      assertThat(files).isPositive();
      assertThat(jmx.getAttribute(metrics, "SnapshotFilesDone")).isEqualTo(files);
      assertThat((Long) jmx.getAttribute(metrics, "BytesRead")).isPositive();

    } finally {
      task.stop();
    }
    assertThat(jmx.isRegistered(metrics)).isFalse();
  }

  @Test
  void missingHistoryFailsOrStartsOverFromASnapshot() throws Exception {
    String path = dir.resolve("cleaned").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.checkpointInterval'='2')",
        path);
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO delta.`%s` VALUES (%d)", path, i);
    }
    Path log = Path.of(path, "_delta_log");
    java.nio.file.Files.delete(log.resolve("00000000000000000000.json"));
    java.nio.file.Files.delete(log.resolve("00000000000000000001.json"));
    Map<String, Object> staleOffset = Map.of("version", 1L);
    Map<String, String> settings =
        ConnectorConfig.forTables(path).pollIntervalMs(60000).buildTask();

    DeltaCdfSourceTask failing = new DeltaCdfSourceTask();
    failing.initialize(
        new StoredOffsetsContext(new StoredOffsets().put(Map.of("table", path), staleOffset)));
    failing.start(settings);
    try {
      assertThatThrownBy(failing::poll)
          .isInstanceOf(ConnectException.class)
          .hasMessageContaining("version 1")
          .hasMessageContaining("offsets");
    } finally {
      failing.stop();
    }

    Map<String, String> resnapshot = new HashMap<>(settings);
    resnapshot.put("name", "recovering");
    resnapshot.put("on.history.missing", "resnapshot");
    DeltaCdfSourceTask recovering = new DeltaCdfSourceTask();
    recovering.initialize(
        new StoredOffsetsContext(new StoredOffsets().put(Map.of("table", path), staleOffset)));
    recovering.start(resnapshot);
    try {
      List<SourceRecord> records = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        List<SourceRecord> batch = recovering.poll();
        if (batch != null) {
          records.addAll(batch);
        }
      }
      // The first record sent already stores a position in the new snapshot.
      assertThat(records.get(0).sourceOffset().get("snapshot")).isEqualTo(true);
      List<SourceRecord> rows = records.stream().filter(r -> r.topic().equals("cleaned")).toList();
      assertThat(rows).hasSize(3);
      assertThat(rows)
          .extracting(r -> (Long) r.headers().lastWithName("_commit_version").value())
          .containsOnly(3L);
      assertThat(
              ManagementFactory.getPlatformMBeanServer()
                  .getAttribute(TableMetrics.objectName("recovering", path), "Resnapshots"))
          .isEqualTo(1L);
    } finally {
      recovering.stop();
    }
  }

  @Test
  void eachRecordCarriesTheSchemaOfItsVersionAcrossSchemaChanges() throws Exception {
    String path = dir.resolve("evolving").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING, score INT) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.columnMapping.mode'='name',"
            + " 'delta.enableTypeWidening'='true')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a', 10)", path); // v1
    sql("ALTER TABLE delta.`%s` ADD COLUMN email STRING", path); // v2
    sql("INSERT INTO delta.`%s` VALUES (2, 'b', 20, 'b@x')", path); // v3
    sql("ALTER TABLE delta.`%s` RENAME COLUMN name TO full_name", path); // v4
    sql("INSERT INTO delta.`%s` VALUES (3, 'c', 30, 'c@x')", path); // v5
    sql("ALTER TABLE delta.`%s` DROP COLUMN email", path); // v6
    sql("INSERT INTO delta.`%s` VALUES (4, 'd', 40)", path); // v7
    sql("ALTER TABLE delta.`%s` ALTER COLUMN score TYPE BIGINT", path); // v8
    sql("INSERT INTO delta.`%s` VALUES (5, 'e', 5000000000)", path); // v9

    List<String> logged = java.util.Collections.synchronizedList(new ArrayList<>());
    org.apache.logging.log4j.core.LoggerContext logs =
        (org.apache.logging.log4j.core.LoggerContext)
            org.apache.logging.log4j.LogManager.getContext(false);
    org.apache.logging.log4j.core.appender.AbstractAppender capture =
        new org.apache.logging.log4j.core.appender.AbstractAppender(
            "schema-changes", null, null, true, null) {
          @Override
          public void append(org.apache.logging.log4j.core.LogEvent event) {
            String message = event.getMessage().getFormattedMessage();
            if (message.contains("has a new schema")) {
              logged.add(message.replace(path, "<t>"));
            }
          }
        };
    capture.start();
    logs.getConfiguration().getRootLogger().addAppender(capture, null, null);
    org.apache.logging.log4j.core.config.Configurator.setLevel(
        "io.deltacdf.connect.task.SchemaChanges", org.apache.logging.log4j.Level.INFO);
    DeltaCdfSourceTask task = new DeltaCdfSourceTask();
    task.initialize(new StoredOffsetsContext(new StoredOffsets()));
    task.start(
        ConnectorConfig.forTables(path)
            .name("evolving")
            .startMode("earliest")
            .keyColumns("id")
            .buildTask());
    try {
      Map<Long, String> fieldsById = new java.util.TreeMap<>();
      for (int i = 0; i < 20 && fieldsById.size() < 5; i++) {
        List<SourceRecord> batch = task.poll();
        for (SourceRecord record : batch == null ? List.<SourceRecord>of() : batch) {
          org.apache.kafka.connect.data.Struct value =
              (org.apache.kafka.connect.data.Struct) record.value();
          fieldsById.put(
              value.getInt64("id"),
              value.schema().fields().stream()
                  .map(f -> f.name() + ":" + f.schema().type())
                  .toList()
                  .toString());
          assertThat(record.valueSchema().name()).isEqualTo("io.deltacdf.evolving.Value");
        }
      }
      assertThat(fieldsById)
          .containsExactly(
              Map.entry(1L, "[id:INT64, name:STRING, score:INT32]"),
              Map.entry(2L, "[id:INT64, name:STRING, score:INT32, email:STRING]"),
              Map.entry(3L, "[id:INT64, full_name:STRING, score:INT32, email:STRING]"),
              Map.entry(4L, "[id:INT64, full_name:STRING, score:INT32]"),
              Map.entry(5L, "[id:INT64, full_name:STRING, score:INT64]"));
      assertThat(logged)
          .containsExactly(
              "Table <t> has a new schema from version 3 on: added [email]",
              "Table <t> has a new schema from version 5 on: added [full_name], dropped [name]",
              "Table <t> has a new schema from version 7 on: dropped [email]",
              "Table <t> has a new schema from version 9 on: changed [score: INT -> LONG]");
    } finally {
      task.stop();
      logs.getConfiguration().getRootLogger().removeAppender("schema-changes");
      org.apache.logging.log4j.core.config.Configurator.setLevel(
          "io.deltacdf.connect.task.SchemaChanges", org.apache.logging.log4j.Level.WARN);
    }
  }

  @Test
  void exactlyOnceTransactionsEndAtVersionsWithoutEmptyOnesForFilteredVersions() throws Exception {
    String path = dir.resolve("filtered").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1), (2)", path); // v1
    sql("DELETE FROM delta.`%s` WHERE id = 1", path); // v2: filtered out
    sql("INSERT INTO delta.`%s` VALUES (3)", path); // v3
    List<String> commits = new ArrayList<>();
    StoredOffsetsContext context =
        new StoredOffsetsContext(new StoredOffsets()) {
          @Override
          public org.apache.kafka.connect.source.TransactionContext transactionContext() {
            return new org.apache.kafka.connect.source.TransactionContext() {
              @Override
              public void commitTransaction() {
                commits.add("after the poll");
              }

              @Override
              public void commitTransaction(SourceRecord record) {
                commits.add("after v" + record.headers().lastWithName("_commit_version").value());
              }

              @Override
              public void abortTransaction() {
                commits.add("abort");
              }

              @Override
              public void abortTransaction(SourceRecord record) {
                commits.add("abort");
              }
            };
          }
        };
    DeltaCdfSourceTask task = new DeltaCdfSourceTask();
    task.initialize(context);
    task.start(
        ConnectorConfig.forTables(path)
            .name("filtered")
            .startMode("earliest")
            .with("change.types", "insert")
            .buildTask());
    try {
      List<SourceRecord> records = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        List<SourceRecord> batch = task.poll();
        if (batch != null) {
          records.addAll(batch);
        }
      }
      assertThat(records).hasSize(3);
      assertThat(commits).containsExactly("after v1", "after v3");
    } finally {
      task.stop();
    }
  }

  /** A context whose offset storage holds the given offsets. */
  private static class StoredOffsetsContext implements SourceTaskContext {
    private final StoredOffsets stored;

    StoredOffsetsContext(StoredOffsets stored) {
      this.stored = stored;
    }

    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
      return null;
    }

    @Override
    public OffsetStorageReader offsetStorageReader() {
      return stored;
    }
  }
}
