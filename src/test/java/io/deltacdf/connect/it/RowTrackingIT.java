package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * change.source=row-tracking through a real worker with exactly-once, against Spark's own feed of
 * the same table: the table has its Change Data Feed and row tracking, with deletion vectors, and
 * the connector ignores the cdc files and pairs rows by row id. Its records equal Spark's
 * table_changes row for row (not only by net effect: an update that sets a row to its own values is
 * there too), across a worker killed (SIGKILL) in the middle of the large UPDATE version; and a
 * second connector that starts with a snapshot sends the table as Spark reads it, then the changes
 * after it.
 *
 * <p>CI size: 6,000 rows; {@code -Drowtracking.it.rows=N} writes N.
 */
class RowTrackingIT {

  private static final Duration WAIT = Duration.ofSeconds(180);
  private static final int ROWS = Integer.getInteger("rowtracking.it.rows", 6_000);

  @TempDir static Path dir;

  @RegisterExtension
  static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder().exactlyOnce(true));

  @Test
  void rowTrackingGivesSparksFeedExactlyOnceAcrossAKilledWorkerAndAfterASnapshot() {
    String path = dir.resolve("accounts").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, amount BIGINT) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.enableRowTracking'='true',"
            + " 'delta.enableDeletionVectors'='true')",
        path);
    spark()
        .range(0, ROWS, 1, 3)
        .selectExpr("id", "id * 10 AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path); // v1
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 2 = 0", path); // v2
    sql("DELETE FROM delta.`%s` WHERE id %% 7 = 0", path); // v3
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT id FROM range(%d, %d)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET amount = -1"
            + " WHEN NOT MATCHED THEN INSERT (id, amount) VALUES (s.id, 0)",
        path, ROWS - 50, ROWS + 50); // v4
    sql("UPDATE delta.`%s` SET amount = amount WHERE id < 10", path); // v5: values unchanged

    cluster.get().rest().deploy("rt", config(path, "earliest"), WAIT);
    // v1 and part of v2's update images.
    TopicReader.readAll(cluster.get().bootstrapServers(), "accounts", ROWS + ROWS / 4, WAIT, false);
    cluster.get().killWorker();
    cluster.get().startWorker();
    cluster.get().rest().awaitRunning("rt", 1, WAIT);

    List<String> expected =
        ChangeDescriptions.ofSparkFeedWithoutTombstones(path, 0, "id", "amount");
    List<ConsumerRecord<byte[], byte[]>> committed =
        TopicReader.readUntilQuiet(
            cluster.get().bootstrapServers(), "accounts", Duration.ofSeconds(8), WAIT, true);
    assertThat(expected)
        .filteredOn(row -> row.startsWith("update_postimage v5 "))
        .as("Spark's feed has the update that kept the values (ids 0 and 7 were deleted in v3)")
        .hasSize(8);
    assertThat(ChangeDescriptions.ofRecords(committed, "id", "amount"))
        .containsExactlyInAnyOrderElementsOf(expected);

    // A snapshot start: the table as Spark reads it, then the changes after it.
    Map<String, String> snapshotConfig = config(path, "snapshot");
    snapshotConfig.put("topic.template", "accounts-from-snapshot");
    cluster.get().rest().deploy("rt-snapshot", snapshotConfig, WAIT);
    long rowsNow = spark().read().format("delta").load(path).count();
    TopicReader.readAll(
        cluster.get().bootstrapServers(), "accounts-from-snapshot", (int) rowsNow, WAIT, true);
    sql("UPDATE delta.`%s` SET amount = amount * 2 WHERE id %% 3 = 0", path); // v6
    List<String> v6 = ChangeDescriptions.ofSparkFeedWithoutTombstones(path, 6, "id", "amount");
    List<ConsumerRecord<byte[], byte[]>> fromSnapshot =
        TopicReader.readAll(
            cluster.get().bootstrapServers(),
            "accounts-from-snapshot",
            (int) rowsNow + v6.size(),
            WAIT,
            true);
    assertThat(fromSnapshot).hasSize((int) rowsNow + v6.size());
    Map<Long, Long> snapshot = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> record : fromSnapshot.subList(0, (int) rowsNow)) {
      snapshot.put(
          TopicReader.jsonValue(record.value()).get("id").asLong(),
          TopicReader.jsonValue(record.value()).get("amount").asLong());
    }
    assertThat(snapshot).isEqualTo(sparkTable(path, 5));
    assertThat(
            ChangeDescriptions.ofRecords(
                fromSnapshot.subList((int) rowsNow, fromSnapshot.size()), "id", "amount"))
        .containsExactlyInAnyOrderElementsOf(v6);
  }

  private static Map<String, String> config(String path, String startMode) {
    return ConnectorConfig.forTables(path)
        .startMode(startMode)
        .keyColumns("id")
        .with("change.source", "row-tracking")
        .with("tombstones.on.delete", "false")
        .with("batch.max.rows", "500")
        .exactlyOnce()
        .build();
  }

  private static Map<Long, Long> sparkTable(String path, long version) {
    Map<Long, Long> rows = new TreeMap<>();
    for (Row row :
        spark()
            .sql(String.format("SELECT id, amount FROM delta.`%s` VERSION AS OF %d", path, version))
            .collectAsList()) {
      rows.put(row.getLong(0), row.getLong(1));
    }
    return rows;
  }
}
