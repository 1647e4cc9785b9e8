package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.DeltaCdfSourceConnector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With exactly-once support on the worker and a transaction per commit version, a worker killed
 * with SIGKILL in the middle of large versions leaves a read_committed consumer with exactly the
 * change feed Spark reads: nothing lost, nothing twice.
 */
class ExactlyOnceIT {

  private static final Duration WAIT = Duration.ofSeconds(120);

  @TempDir static Path dir;
  private static KafkaCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = KafkaCluster.builder().exactlyOnce(true).separateWorkerJvm(true).start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

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

    Map<String, String> config = new HashMap<>();
    config.put("connector.class", DeltaCdfSourceConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("delta.table.paths", path);
    config.put("start.mode", "earliest");
    config.put("key.columns", "id");
    config.put("batch.max.rows", "200");
    config.put("exactly.once.support", "required");
    config.put("transaction.boundary", "connector");
    cluster.rest().putConfig("eos", config);
    cluster.rest().awaitRunning("eos", 1, WAIT);

    List<ConsumerRecord<byte[], byte[]>> beforeKill =
        TopicReader.readAll(cluster.bootstrapServers(), "orders", 8_000, WAIT, false);
    cluster.killWorker();
    cluster.startWorker();
    cluster.rest().awaitRunning("eos", 1, WAIT);

    List<ConsumerRecord<byte[], byte[]>> committed =
        TopicReader.readUntilQuiet(
            cluster.bootstrapServers(), "orders", Duration.ofSeconds(8), WAIT, true);
    List<String> actual = ChangeDescriptions.ofRecords(committed, "id", "amount");
    System.out.printf(
        "exactly-once: %d records seen before the kill, %d committed, %d expected%n",
        beforeKill.size(), actual.size(), expected.size());
    assertThat(beforeKill.size()).isLessThan(expected.size());
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }
}
