package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.task.TableMetrics;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * table.shards changed (1 → 3 on the running connector, 3 → 2 on the stopped one) while a writer
 * commits versions, with exactly-once, and the worker killed (SIGKILL) in the second hand-over: the
 * new shards take over where the old partitions stood, also after the crash, so a read_committed
 * consumer sees every change of Spark's table_changes exactly once, and per key the commit versions
 * never go back.
 *
 * <p>Under exactly-once a running partition stores positions at version ends only, so a hand-over
 * has rows to sort out only where the old shards stood at different versions. A rate limit per task
 * makes a large version (written after the writer stopped) take the three shards seconds, at
 * different speeds (one task reads two of them); the connector is stopped while some have passed it
 * and some have not, and resumed with the new count. The worker is killed as soon as a new shard
 * sends a row of the hand-over, at most 10 s after both new shards started from the old shards'
 * positions. Which of the two happened is printed, not asserted: a lagging shard may have sent its
 * last rows of the large version before it stopped, leaving the new shards nothing to send in it.
 */
class ShardCountChangeIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String NAME = "reshard";

  @TempDir Path dir;

  @Test
  void changingTheShardCountMidStreamAndCrashingInTheHandOverSendsEveryChangeOnce()
      throws Exception {
    try (KafkaCluster cluster = KafkaCluster.builder().exactlyOnce(true).start();
        ChangingTable table = new ChangingTable(dir.resolve("orders").toString(), 39L, 500)) {
      table.write(3);
      ConnectorConfig config =
          ConnectorConfig.forTables(table.path())
              .tasksMax(2)
              .topicTemplate(NAME)
              .startMode("earliest")
              .keyColumns("id")
              .pollIntervalMs(200)
              .with("batch.max.rows", "300")
              .exactlyOnce();
      cluster.rest().deploy(NAME, shards(config, 1), 1, WAIT);
      table.start(200);
      Thread.sleep(3_000);
      // From here a task sends at most 30 rows a second, in batches of a few rows: the task
      // reading two of the three shards lags, part way through a version.
      config.with("max.rows.per.second", "30").with("batch.max.rows", "50");
      cluster.rest().putConfig(NAME, shards(config, 3));
      Thread.sleep(4_000);
      cluster.rest().awaitRunning(NAME, 2, WAIT);
      table.stop();
      long large = table.writeLargeVersion();
      awaitAcross(cluster.rest(), large);
      // Stopped there, so that the 3 shards' positions stay on both sides of the large version
      // while the count changes.
      cluster.rest().stop(NAME);
      cluster.rest().awaitStopped(NAME, WAIT);
      List<Long> handedOver = storedVersions(cluster.rest(), 3);
      assertThat(across(handedOver, large))
          .as("versions the 3 shards stopped at: %s, the large one %d", handedOver, large)
          .isTrue();
      cluster.rest().putConfig(NAME, shards(config, 2));
      cluster.rest().resume(NAME);
      awaitNewShardsOpened(cluster, table.path());
      boolean sending = awaitSendingBelow(cluster, table.path(), Collections.max(handedOver));
      List<Long> sent =
          List.of(rowsSent(cluster, table.path(), 0), rowsSent(cluster, table.path(), 1));
      List<Long> newVersions = storedVersions(cluster.rest(), 2);
      cluster.killWorker();
      cluster.startWorker();
      cluster.rest().awaitRunning(NAME, 2, WAIT);

      List<String> expected = table.sparkChanges();
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(), NAME, expected, Duration.ofSeconds(3), WAIT, true);
      FeedCheck check = new FeedCheck(expected, records);
      System.out.printf(
          "ShardCountChangeIT: writes %s; the 3 shards stood at versions %s (the large one %d)"
              + " when changed to 2; when the worker was killed the 2 shards had sent %s rows (%s"
              + " before version %d) and stored versions %s: %s%n",
          table.operations(),
          handedOver,
          large,
          sent,
          sending ? "some" : "none",
          Collections.max(handedOver),
          newVersions,
          check.summary());
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      assertThat(check.duplicated).as(check.summary()).isZero();
      assertThat(ShardsIT.keysGoingBack(records)).isEmpty();
      assertThat(cluster.rest().offsets(NAME).toString())
          .contains("\"shard\":\"0/2\"", "\"shard\":\"1/2\"", "\"shard\":\"2/3\"");
    }
  }

  /**
   * Waits until the 3 shards all stored a position, some before the end of version {@code large}
   * and some after it.
   */
  private static void awaitAcross(ConnectRest rest, long large) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    List<Long> versions = storedVersions(rest, 3);
    while (!across(versions, large)) {
      assertThat(System.nanoTime())
          .as("the shards' stored versions %s on both sides of version %d", versions, large)
          .isLessThan(deadline);
      Thread.sleep(100);
      versions = storedVersions(rest, 3);
    }
  }

  /** Whether of 3 shards' {@code versions} some stand at or before {@code large}, some past it. */
  private static boolean across(List<Long> versions, long large) {
    return versions.size() == 3
        && Collections.min(versions) <= large
        && Collections.max(versions) > large;
  }

  /**
   * Waits until both shards of 2 run: each task has read the stored offsets and set its shards'
   * start and hand-over from the 3 shards' positions (their metrics are registered then).
   */
  private static void awaitNewShardsOpened(KafkaCluster cluster, String table) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    for (int shard = 0; shard < 2; shard++) {
      ObjectName metrics = TableMetrics.objectName(NAME, table + " (shard " + shard + "/2)");
      while (!cluster.workerMBeans().isRegistered(metrics)) {
        assertThat(System.nanoTime()).as("%s registered", metrics).isLessThan(deadline);
        Thread.sleep(20);
      }
    }
  }

  /**
   * Waits up to 10 s until a shard of 2 has handed Connect a record of a version before {@code
   * end}: it is inside its hand-over, in a transaction not yet committed. False when none did: the
   * old shards had sent all their rows before {@code end}, so the new ones had none to send there.
   */
  private static boolean awaitSendingBelow(KafkaCluster cluster, String table, long end)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      for (int shard = 0; shard < 2; shard++) {
        ObjectName metrics = TableMetrics.objectName(NAME, table + " (shard " + shard + "/2)");
        long last = (Long) cluster.workerMBeans().getAttribute(metrics, "LastVersion");
        if (last >= 0 && last < end) {
          return true;
        }
      }
      Thread.sleep(20);
    }
    return false;
  }

  /** The rows the shard of 2 {@code shard} has handed to Connect since its task started. */
  private static long rowsSent(KafkaCluster cluster, String table, int shard) throws Exception {
    ObjectName metrics = TableMetrics.objectName(NAME, table + " (shard " + shard + "/2)");
    long rows = 0;
    for (String type :
        List.of("RowsInserted", "RowsUpdatePreimage", "RowsUpdatePostimage", "RowsDeleted")) {
      rows += (Long) cluster.workerMBeans().getAttribute(metrics, type);
    }
    return rows;
  }

  /** The stored versions of the shards of {@code count}, by shard. */
  private static List<Long> storedVersions(ConnectRest rest, int count) {
    Map<String, Long> versions = new TreeMap<>();
    for (JsonNode stored : rest.offsets(NAME).path("offsets")) {
      String shard = stored.path("partition").path("shard").asText();
      if (shard.endsWith("/" + count)) {
        versions.put(shard, stored.path("offset").path("version").asLong());
      }
    }
    return List.copyOf(versions.values());
  }

  private static Map<String, String> shards(ConnectorConfig config, int count) {
    return config.with("table.shards", Integer.toString(count)).build();
  }
}
