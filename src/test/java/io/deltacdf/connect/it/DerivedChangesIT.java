package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table that never had a change data feed, streamed with change.source=derived through a real
 * worker with exactly-once delivery: its snapshot, then an UPDATE rewriting every file, a DELETE
 * and a MERGE, with the worker killed (SIGKILL) in the middle of the large derived UPDATE version,
 * whose diff spills to temp files. A read_committed consumer sees exactly the derived feed, which
 * DerivedDifferentialTest checks against Spark: nothing lost, nothing twice.
 */
class DerivedChangesIT {

  private static final Duration WAIT = Duration.ofSeconds(180);
  private static final int ROWS = 30_000;

  @TempDir static Path dir;

  @RegisterExtension
  static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder().exactlyOnce(true));

  @Test
  void tableWithoutChangeDataFeedStreamsExactlyOnceAcrossAKilledWorker() {
    String path = dir.resolve("accounts").toString();
    sql("CREATE TABLE delta.`%s` (id BIGINT, amount BIGINT) USING delta", path);
    spark()
        .range(0, ROWS, 1, 3)
        .selectExpr("id", "id * 10 AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path);

    Map<String, String> config =
        ConnectorConfig.forTables(path)
            .startMode("snapshot")
            .keyColumns("id")
            .with("change.source", "derived")
            .with("tombstones.on.delete", "false")
            .with("batch.max.rows", "500")
            // The UPDATE's 60,000 candidate rows spill to temp files, as a version ten times
            // larger would under the default, so the kill lands in a spilled diff.
            .with("derived.diff.memory.rows", "10000")
            .exactlyOnce()
            .build();
    cluster.get().rest().deploy("derived", config, WAIT);
    TopicReader.readAll(cluster.get().bootstrapServers(), "accounts", ROWS, WAIT, true);

    // v2: half the rows change, every file is rewritten; v3, v4: a delete and a merge.
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 2 = 0", path);
    sql("DELETE FROM delta.`%s` WHERE id %% 7 = 0", path);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT id FROM range(%d, %d)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET amount = -1"
            + " WHEN NOT MATCHED THEN INSERT (id, amount) VALUES (s.id, 0)",
        path, ROWS - 50, ROWS + 50);
    List<String> expected = derivedFeed(path);

    // The snapshot and part of v2's 30,000 update images.
    TopicReader.readAll(cluster.get().bootstrapServers(), "accounts", ROWS + 8_000, WAIT, false);
    cluster.get().killWorker();
    cluster.get().startWorker();
    cluster.get().rest().awaitRunning("derived", 1, WAIT);

    List<ConsumerRecord<byte[], byte[]>> committed =
        TopicReader.readUntilQuiet(
            cluster.get().bootstrapServers(), "accounts", Duration.ofSeconds(8), WAIT, true);
    List<String> actual = ChangeDescriptions.ofRecords(committed, "id", "amount");
    System.out.printf(
        "derived: %d committed records, %d expected%n", actual.size(), expected.size());
    assertThat(expected).filteredOn(row -> row.startsWith("update_preimage v2 ")).hasSize(ROWS / 2);
    assertThat(expected).filteredOn(row -> row.startsWith("delete v3 ")).hasSize((ROWS + 6) / 7);
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** The derived feed from the snapshot of version 1, described as the records are. */
  private static List<String> derivedFeed(String path) {
    List<String> rows = new ArrayList<>();
    try (DeltaTable table =
            DeltaTable.open(path, Map.of(), false)
                .withChangeSource(ChangeSource.DERIVED, List.of("id"));
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InSnapshot.start(1))) {
      ChangeBatch batch;
      while ((batch = feed.next(10_000)) != null) {
        for (ChangeRow row : batch.rows()) {
          rows.add(
              String.format(
                  "%s v%d @%d id=%s amount=%s",
                  row.label(),
                  row.version(),
                  row.commitTimestampMs(),
                  row.values()[0],
                  row.values()[1]));
        }
      }
    }
    return rows;
  }
}
