package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * With exactly-once support on the worker and a transaction per commit version, a worker killed
 * with SIGKILL in the middle of large versions leaves a read_committed consumer with exactly the
 * change feed Spark reads: nothing lost, nothing twice.
 */
class ExactlyOnceIT {

  private static final Duration WAIT = Duration.ofSeconds(120);

  @TempDir static Path dir;

  @RegisterExtension
  static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder().exactlyOnce(true));

  @Test
  void killedWorkerLeavesNoDuplicatesAndNoGaps() {
    String path = dir.resolve("orders").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, amount BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    for (int batch = 0; batch < 3; batch++) {
      spark()
          .range(batch * 10_000L, (batch + 1) * 10_000L, 1, 2)
          .selectExpr("id", "id * 10 AS amount")
          .write()
          .format("delta")
          .mode("append")
          .save(path);
    }
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 6 = 0", path);
    List<String> expected =
        ChangeDescriptions.ofSparkFeedWithoutTombstones(path, 0, "id", "amount");

    Map<String, String> config =
        ConnectorConfig.forTables(path)
            .startMode("earliest")
            .keyColumns("id")
            .with("batch.max.rows", "200")
            .exactlyOnce()
            .build();
    cluster.get().rest().deploy("eos", config, WAIT);

    List<ConsumerRecord<byte[], byte[]>> beforeKill =
        TopicReader.readAll(cluster.get().bootstrapServers(), "orders", 8_000, WAIT, false);
    cluster.get().killWorker();
    cluster.get().startWorker();
    cluster.get().rest().awaitRunning("eos", 1, WAIT);

    List<ConsumerRecord<byte[], byte[]>> committed =
        TopicReader.readUntilQuiet(
            cluster.get().bootstrapServers(), "orders", Duration.ofSeconds(8), WAIT, true);
    List<String> actual = ChangeDescriptions.ofRecords(committed, "id", "amount");
    System.out.printf(
        "exactly-once: %d records seen before the kill, %d committed, %d expected%n",
        beforeKill.size(), actual.size(), expected.size());
    assertThat(beforeKill.size()).isLessThan(expected.size());
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * Read with read_committed, the commit markers between a partition's records (each takes an
   * offset) show where transactions end: every transaction holds rows of one version only, also
   * where the rows closing a version are filtered out, and where a task with two tables waits for
   * update images in envelope format.
   */
  @Test
  void eachTransactionHoldsTheRowsOfOneVersion() {
    String overwritten = dir.resolve("overwritten").toString();
    String updated = dir.resolve("updated").toString();
    for (String path : List.of(overwritten, updated)) {
      CdfTables.keyed(path);
      sql("INSERT INTO delta.`%s` SELECT id, 'a' FROM range(0, 6)", path); // v1
    }
    sql("INSERT OVERWRITE delta.`%s` SELECT id, 'b' FROM range(3, 9)", overwritten); // v2
    sql("INSERT INTO delta.`%s` VALUES (20, 'c')", overwritten); // v3
    sql("UPDATE delta.`%s` SET name = 'b'", updated); // v2: 6 update pairs
    sql("UPDATE delta.`%s` SET name = 'c' WHERE id < 3", updated); // v3

    Map<String, String> filtered = transactional(overwritten, "filtered");
    filtered.put("change.types", "insert");
    filtered.put("tombstones.on.delete", "false");
    filtered.put("batch.max.rows", "2");
    cluster.get().rest().putConfig("filtered", filtered);
    Map<String, String> envelope = transactional(overwritten + "," + updated, "envelope-");
    envelope.put("topic.template", "envelope-${table}");
    envelope.put("record.format", "envelope");
    envelope.put("tombstones.on.delete", "false");
    envelope.put("batch.max.rows", "3");
    cluster.get().rest().putConfig("envelope", envelope);
    cluster.get().rest().awaitRunning("filtered", 1, WAIT);
    cluster.get().rest().awaitRunning("envelope", 1, WAIT);

    assertOneVersionPerTransaction("filtered", 6 + 6 + 1);
    assertOneVersionPerTransaction("envelope-overwritten", 6 + 12 + 1);
    assertOneVersionPerTransaction("envelope-updated", 6 + 6 + 3);
  }

  private static Map<String, String> transactional(String paths, String name) {
    return ConnectorConfig.forTables(paths)
        .startMode("earliest")
        .keyColumns("id")
        .topicTemplate(name)
        .exactlyOnce()
        .build();
  }

  /** Groups the topic's records (one partition) into transactions by the markers between them. */
  private static void assertOneVersionPerTransaction(String topic, int records) {
    List<ConsumerRecord<byte[], byte[]>> committed =
        TopicReader.readAll(cluster.get().bootstrapServers(), topic, records, WAIT, true);
    assertThat(committed).as("records on %s", topic).hasSize(records);
    List<java.util.Set<Long>> transactions = TopicReader.commitVersionsPerTransaction(committed);
    System.out.printf("%s: versions per transaction %s%n", topic, transactions);
    assertThat(transactions)
        .as("versions of each transaction on %s", topic)
        .allSatisfy(versions -> assertThat(versions).hasSize(1));
  }
}
