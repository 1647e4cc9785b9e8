package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Connect as the distributed engine: one connector with 8 changing tables on {@code
 * tasks.max=4} runs on a group of 2 workers, each worker running some of the tasks. One worker is
 * stopped gracefully while the tables keep changing; its tasks move to the other worker and
 * continue from their committed offsets. In the end each table's topic holds every change Spark
 * reads from that table, some perhaps twice (at-least-once), each duplicate a contiguous replay
 * (see {@link FeedCheck}).
 */
class ScaleOutIT {

  private static final long SEED = Long.getLong("scale.seed", System.nanoTime());
  private static final int TABLES = 8;
  private static final int TASKS = 4;
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String NAME = "scale";

  @TempDir Path dir;

  @Test
  void tasksSpreadOverTwoWorkersAndMoveWhenOneStops() throws Exception {
    System.out.printf("ScaleOutIT: seed=%d (-Dscale.seed=%d to replay)%n", SEED, SEED);
    Random random = new Random(SEED);
    List<ChangingTable> tables = new ArrayList<>();
    try (KafkaCluster cluster = KafkaCluster.builder().start();
        RoundRobinWriter writer = new RoundRobinWriter(tables)) {
      KafkaCluster.AdditionalWorker second = cluster.startAdditionalWorker();
      List<String> paths = new ArrayList<>();
      for (int i = 0; i < TABLES; i++) {
        // Small large versions: the test is about placement and hand-over, not volume.
        ChangingTable table =
            new ChangingTable(dir.resolve("t" + i).toString(), random.nextLong(), 300);
        table.write(1);
        tables.add(table);
        paths.add(table.path());
      }

      Map<String, String> config =
          ConnectorConfig.forTables(String.join(",", paths))
              .tasksMax(TASKS)
              .topicTemplate(NAME + ".${table}")
              .startMode("earliest")
              .keyColumns("id")
              .pollIntervalMs(200)
              .with("batch.max.rows", "200")
              .build();
      cluster.rest().putConfig(NAME, config);
      writer.start();

      Map<Integer, String> placement = awaitSettledTasks(cluster.rest());
      System.out.printf(
          "ScaleOutIT: task -> worker %s (main %s, second %s)%n",
          placement, cluster.rest().workerId(), second.workerId());
      assertThat(new TreeSet<>(placement.values()))
          .as("workers running the %d tasks", TASKS)
          .containsExactlyInAnyOrder(cluster.rest().workerId(), second.workerId());

      writer.awaitRounds(1);
      long stoppedAt = System.nanoTime();
      second.stop();
      cluster.rest().awaitRunning(NAME, TASKS, WAIT);
      System.out.printf(
          "ScaleOutIT: stopped %s; all %d tasks RUNNING on %s %d ms later%n",
          second.workerId(),
          TASKS,
          cluster.rest().workerId(),
          (System.nanoTime() - stoppedAt) / 1_000_000);
      // Every table changes again after the move, so every moved task has to carry on.
      writer.awaitRounds(2);
      writer.stop();

      for (ChangingTable table : tables) {
        checkTopic(cluster, table);
      }
    }
  }

  /** The table's topic holds its whole change feed: nothing lost, any duplicate a replay. */
  private static void checkTopic(KafkaCluster cluster, ChangingTable table) {
    String topic = NAME + "." + Path.of(table.path()).getFileName();
    List<String> expected = table.sparkChanges();
    List<ConsumerRecord<byte[], byte[]>> records =
        ChangingTable.readEveryChange(
            cluster.bootstrapServers(), topic, expected, Duration.ofSeconds(1), WAIT, false);
    FeedCheck check = new FeedCheck(expected, records);
    System.out.printf("ScaleOutIT: %s writes %s: %s%n", topic, table.operations(), check.summary());
    assertThat(check.lost).as(topic + ": " + check.summary()).isZero();
    assertThat(check.unexpected).as(topic + ": " + check.summary()).isZero();
    assertThat(check.orderProblems).as(topic + ": " + check.summary()).isEmpty();
  }

  /**
   * Waits until the connector and all tasks are RUNNING and have stayed on the same workers for 3 s
   * (the rebalances after the connector's creation may still move tasks), and returns each task's
   * worker.
   */
  private static Map<Integer, String> awaitSettledTasks(ConnectRest rest)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Map<Integer, String> placement = null;
    long since = System.nanoTime();
    while (System.nanoTime() < deadline) {
      ConnectRest.Response response = rest.get("/connectors/" + NAME + "/status");
      Map<Integer, String> now = response.ok() ? runningTasks(response.body()) : null;
      if (now == null || !now.equals(placement)) {
        placement = now;
        since = System.nanoTime();
      } else if (System.nanoTime() - since > 3_000_000_000L) {
        return placement;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("Connector " + NAME + " never settled; last placement " + placement);
  }

  /** Task id to worker id when the connector and all its tasks are RUNNING, else null. */
  private static Map<Integer, String> runningTasks(JsonNode status) {
    if (!"RUNNING".equals(status.path("connector").path("state").asText())
        || status.path("tasks").size() != TASKS) {
      return null;
    }
    Map<Integer, String> placement = new TreeMap<>();
    for (JsonNode task : status.path("tasks")) {
      if (!"RUNNING".equals(task.path("state").asText())) {
        return null;
      }
      placement.put(task.path("id").asInt(), task.path("worker_id").asText());
    }
    return placement;
  }

  /**
   * One thread writing one change to each table in turn (one Spark job at a time keeps local[1]
   * responsive), counting completed rounds over all tables.
   */
  private static final class RoundRobinWriter implements AutoCloseable {

    private final List<ChangingTable> tables;
    private final AtomicInteger rounds = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private Thread thread;

    RoundRobinWriter(List<ChangingTable> tables) {
      this.tables = tables;
    }

    void start() {
      thread =
          new Thread(
              () -> {
                try {
                  while (!stopping) {
                    for (ChangingTable table : tables) {
                      table.write(1);
                    }
                    rounds.incrementAndGet();
                  }
                } catch (Throwable e) {
                  failure.set(e);
                }
              },
              "round-robin-writer");
      thread.setDaemon(true);
      thread.start();
    }

    /** Waits until {@code more} rounds have completed after the call. */
    void awaitRounds(int more) throws InterruptedException {
      int target = rounds.get() + more;
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (rounds.get() < target) {
        rethrow();
        if (System.nanoTime() > deadline) {
          throw new AssertionError("The writer did not complete " + more + " round(s) in " + WAIT);
        }
        Thread.sleep(100);
      }
    }

    /** Stops after the write under way; rethrows what made the writer fail. */
    void stop() throws InterruptedException {
      close();
      rethrow();
    }

    private void rethrow() {
      if (failure.get() != null) {
        throw new IllegalStateException("The writer failed", failure.get());
      }
    }

    @Override
    public void close() throws InterruptedException {
      stopping = true;
      if (thread != null) {
        thread.join(WAIT.toMillis());
      }
    }
  }
}
