package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A worker streaming a table that keeps changing is killed with SIGKILL at random moments, again
 * and again, and restarted each time; once the writes stop and the connector has caught up, the
 * topic is compared with Spark's change feed of every version.
 *
 * <ul>
 *   <li>Exactly-once (worker {@code exactly.once.source.support=enabled}, connector {@code
 *       exactly.once.support=required} and {@code transaction.boundary=connector}), read with
 *       read_committed: every change exactly once.
 *   <li>At-least-once (a plain worker), read with read_uncommitted: every change at least once, and
 *       each duplicate a re-delivery, i.e. part of a contiguous replay of what the topic already
 *       held (see {@link FeedCheck}).
 * </ul>
 *
 * <p>The table (partitioned, deletion vectors on) takes inserts, updates, deletes, MERGEs and large
 * versions of several thousand rows from a background thread all along. Every other kill comes
 * within a second of a large version's commit, when the task is most likely in the middle of it;
 * the others at a random moment up to 4 s after the restarted task is RUNNING. With exactly-once,
 * the records of aborted transactions (seen with read_uncommitted) are counted and printed as
 * evidence that kills landed inside transactions.
 *
 * <p>{@code -Dcrash.kills=N} (default 10) sets the number of kills and {@code -Dcrash.seed=S}
 * repeats a run's writes and kill delays (the seed is printed; the interleaving with the connector
 * still depends on timing).
 */
class CrashSafetyIT {

  private static final int KILLS = Integer.getInteger("crash.kills", 10);
  private static final long SEED = Long.getLong("crash.seed", System.nanoTime());
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Duration CATCH_UP = Duration.ofSeconds(240);

  /** Kill moments: at most this long after the task was reported RUNNING again. */
  private static final long MAX_RUN_MS = 4_000;

  @TempDir Path dir;

  @ParameterizedTest(name = "exactlyOnce={0}")
  @ValueSource(booleans = {true, false})
  void randomKillsLoseNothing(boolean exactlyOnce) throws Exception {
    String mode = exactlyOnce ? "exactly-once" : "at-least-once";
    long seed = SEED + (exactlyOnce ? 0 : 1);
    System.out.printf(
        "CrashSafetyIT %s: seed=%d kills=%d (-Dcrash.seed=%d to replay)%n",
        mode, seed, KILLS, SEED);
    Random random = new Random(seed);
    long started = System.nanoTime();
    String name = exactlyOnce ? "crash-eos" : "crash-alo";

    try (KafkaCluster cluster =
            KafkaCluster.builder()
                .exactlyOnce(exactlyOnce)
                // Without exactly-once, a kill loses the offsets of up to this long of delivered
                // records: a wide window makes re-deliveries (and so their check) likely.
                .workerProperty("offset.flush.interval.ms", "3000")
                .start();
        ChangingTable table =
            new ChangingTable(dir.resolve("crashed").toString(), random.nextLong(), 3_000)) {
      table.write(5); // some history before the connector starts
      table.start(200);

      ConnectorConfig config =
          ConnectorConfig.forTables(table.path())
              .topicTemplate(name)
              .startMode("earliest")
              .keyColumns("id")
              .pollIntervalMs(200)
              // Small batches and transactions: kills land inside versions and inside
              // transactions.
              .with("batch.max.rows", "500");
      if (exactlyOnce) {
        config.exactlyOnce().with("transaction.max.rows", "2000");
      }
      cluster.rest().deploy(name, config.build(), WAIT);

      List<Long> restartMillis = new ArrayList<>();
      for (int kill = 1; kill <= KILLS; kill++) {
        if (kill % 2 == 0) {
          // Half the kills within a second of a large version's commit: the task is then
          // most likely in the middle of it (and, with exactly-once, of a transaction).
          table.writeLargeVersionNow(WAIT.toMillis());
          Thread.sleep(random.nextLong(1_000));
        } else {
          Thread.sleep(random.nextLong(MAX_RUN_MS + 1));
        }
        failFast(table);
        cluster.killWorker();
        long killedAt = System.nanoTime();
        cluster.startWorker();
        cluster.rest().awaitRunning(name, 1, WAIT);
        restartMillis.add((System.nanoTime() - killedAt) / 1_000_000);
      }
      System.out.printf(
          "CrashSafetyIT %s: %d kills, kill-to-RUNNING ms %s%n", mode, KILLS, restartMillis);
      Thread.sleep(random.nextLong(MAX_RUN_MS + 1));
      table.stop();
      long writesStopped = System.nanoTime();
      List<String> expected = table.sparkChanges();
      System.out.printf(
          "CrashSafetyIT %s: writes %s -> %d changes in %d versions%n",
          mode,
          table.operations(),
          expected.size(),
          expected.stream().map(c -> c.substring(0, c.indexOf(' '))).distinct().count());

      // Until every expected change has arrived at least once, then until quiet.
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(),
              name,
              expected,
              Duration.ofSeconds(3),
              CATCH_UP,
              exactlyOnce);
      FeedCheck check = new FeedCheck(expected, records);
      System.out.printf(
          "CrashSafetyIT %s: lost=%d duplicated=%d total=%d (%s); caught up %d s"
              + " after the writes stopped, %d s in all%n",
          mode,
          check.lost,
          check.duplicated,
          check.total,
          check.summary(),
          (System.nanoTime() - writesStopped) / 1_000_000_000,
          (System.nanoTime() - started) / 1_000_000_000);

      if (exactlyOnce) {
        // What the kills left behind: records of aborted transactions, which only a
        // read_uncommitted consumer sees. Evidence that kills did land inside transactions.
        int uncommitted =
            TopicReader.readUntilQuiet(
                    cluster.bootstrapServers(), name, Duration.ofSeconds(3), WAIT, false)
                .size();
        System.out.printf(
            "CrashSafetyIT %s: %d records in aborted transactions%n",
            mode, uncommitted - check.total);
      }
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      assertThat(check.orderProblems).as(check.summary()).isEmpty();
      if (exactlyOnce) {
        assertThat(check.duplicated).as(check.summary()).isZero();
        assertThat(check.total).isEqualTo(expected.size());
      } else {
        // Each crash sends the task back at most once per restart (a kill during a replay
        // starts another run), so there are no more runs than kills.
        assertThat(check.replays).as(check.summary()).isLessThanOrEqualTo(KILLS);
      }
    }
  }

  private static void failFast(ChangingTable table) {
    if (table.failure() != null) {
      throw new IllegalStateException("The background writer failed", table.failure());
    }
  }
}
