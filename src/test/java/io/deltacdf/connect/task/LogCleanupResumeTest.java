package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log cleanup that removes versions the connector has already read must not stop it: the connector
 * has read version N-1, the log keeps a checkpoint at N and the commits from N on, and the
 * connector continues with N, emitting exactly the rows Spark's change feed has from N on.
 */
class LogCleanupResumeTest {

  @TempDir Path dir;

  @Test
  void theConnectorContinuesAtTheCheckpointVersionAfterTheVersionsItReadWereCleanedUp()
      throws Exception {
    String path = dir.resolve("orders").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.checkpointInterval'='4')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path); // v1
    sql("UPDATE delta.`%s` SET name = 'x' WHERE id = 1", path); // v2
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path); // v3
    SimulatedWorker worker = new SimulatedWorker(false);
    Map<String, String> settings =
        ConnectorConfig.forTables(path)
            .name("cleanup")
            .startMode("earliest")
            .pollIntervalMs(50)
            .buildTask();
    worker.start(settings);
    worker.poll(4);
    worker.stop();
    assertThat(worker.storedPosition(path))
        .as("read up to version 3")
        .isEqualTo(ChangePosition.InVersion.start(4L));
    int readBefore = worker.delivered().size();

    sql("UPDATE delta.`%s` SET name = 'y' WHERE id = 2", path); // v4, checkpointed
    Path log = Path.of(path, "_delta_log");
    assertThat(log.resolve(String.format("%020d.checkpoint.parquet", 4))).exists();
    for (int version = 0; version < 4; version++) {
      Files.delete(log.resolve(String.format("%020d.json", version)));
      Files.deleteIfExists(log.resolve(String.format(".%020d.json.crc", version)));
      Files.deleteIfExists(log.resolve(String.format("%020d.crc", version)));
    }
    Files.deleteIfExists(log.resolve(String.format("%020d.checkpoint.parquet", 2)));

    worker.start(settings);
    worker.poll(3);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT 3 AS id, 'cc' AS name UNION ALL SELECT 4, 'd') s"
            + " ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        path); // v5
    worker.poll(4);
    worker.stop();

    List<String> resumed =
        worker.delivered().subList(readBefore, worker.delivered().size()).stream()
            .filter(r -> r.topic().equals("orders"))
            .map(LogCleanupResumeTest::describe)
            .sorted()
            .toList();
    List<String> spark =
        spark()
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 4)
            .load(path)
            .collectAsList()
            .stream()
            .map(LogCleanupResumeTest::describe)
            .sorted()
            .toList();
    assertThat(spark).hasSize(2 + 3);
    assertThat(resumed).isEqualTo(spark);
  }

  private static String describe(SourceRecord record) {
    Struct value = (Struct) record.value();
    return String.format(
        "%s v%s @%s id=%s name=%s",
        record.headers().lastWithName("_change_type").value(),
        record.headers().lastWithName("_commit_version").value(),
        record.headers().lastWithName("_commit_timestamp").value(),
        value.get("id"),
        value.get("name"));
  }

  private static String describe(Row row) {
    return String.format(
        "%s v%s @%s id=%s name=%s",
        row.<String>getAs("_change_type"),
        row.<Long>getAs("_commit_version"),
        row.<Instant>getAs("_commit_timestamp").toEpochMilli(),
        row.<Long>getAs("id"),
        row.<String>getAs("name"));
  }
}
