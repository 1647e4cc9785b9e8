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
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two workers in one Connect group share a connector with one task on a table that keeps changing.
 * The worker running the task is killed with SIGKILL: the group notices when its session times out,
 * waits {@code scheduled.rebalance.max.delay.ms} for it to come back, then gives the connector and
 * the task to the survivor, which resumes from the last committed offset. Twice: the killed worker
 * is restarted in between, and the second kill hits whichever worker the task is on by then. In the
 * end the topic holds every change Spark reads from the table, some perhaps twice (at-least-once),
 * each duplicate a contiguous replay (see {@link FeedCheck}).
 */
class WorkerFailoverIT {

  private static final long SEED = Long.getLong("failover.seed", System.nanoTime());
  private static final long SESSION_TIMEOUT_MS = 5_000; // KafkaCluster's session.timeout.ms
  private static final long REBALANCE_DELAY_MS = 3_000;

  /** Beyond session timeout + rebalance delay: the rebalance itself and the task's start. */
  private static final long MARGIN_MS = 20_000;

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String NAME = "failover";

  @TempDir Path dir;

  /** A live worker of the group: how to kill it, and how to start a replacement. */
  private record Member(
      String id, String role, ConnectRest rest, Runnable kill, Supplier<Member> restart) {}

  @Test
  void taskMovesToTheSurvivingWorkerAndLosesNothing() throws Exception {
    System.out.printf("WorkerFailoverIT: seed=%d (-Dfailover.seed=%d to replay)%n", SEED, SEED);
    Random random = new Random(SEED);
    try (KafkaCluster cluster =
            KafkaCluster.builder()
                // Production keeps a lost worker's tasks unassigned for a while (5 min by default)
                // in case it comes back; a short delay keeps that path in the test.
                .workerProperty(
                    "scheduled.rebalance.max.delay.ms", Long.toString(REBALANCE_DELAY_MS))
                .start();
        ChangingTable table =
            new ChangingTable(dir.resolve("failover").toString(), random.nextLong(), 2_000)) {
      List<Member> members = new ArrayList<>();
      members.add(primary(cluster));
      members.add(additional(cluster, cluster.startAdditionalWorker()));
      table.write(3);
      table.start(300);

      Map<String, String> config =
          ConnectorConfig.forTables(table.path())
              .topicTemplate(NAME)
              .startMode("earliest")
              .keyColumns("id")
              .pollIntervalMs(200)
              .with("batch.max.rows", "500")
              .build();
      cluster.rest().putConfig(NAME, config);

      List<Long> moveMillis = new ArrayList<>();
      for (int round = 1; round <= 2; round++) {
        String taskWorker = awaitSettledTask(members.get(0).rest());
        Member victim =
            members.stream()
                .filter(m -> m.id().equals(taskWorker))
                .findFirst()
                .orElseThrow(() -> new AssertionError("Task on unknown worker " + taskWorker));
        Thread.sleep(1_000 + random.nextLong(2_000));
        victim.kill().run();
        long killedAt = System.nanoTime();
        members.remove(victim);
        Member survivor = members.get(0);
        survivor.rest().awaitRunning(NAME, 1, WAIT);
        long moved = (System.nanoTime() - killedAt) / 1_000_000;
        moveMillis.add(moved);
        System.out.printf(
            "WorkerFailoverIT round %d: killed %s %s (the task's); connector and"
                + " task RUNNING on %s %s %d ms later%n",
            round, victim.role(), victim.id(), survivor.role(), survivor.id(), moved);
        assertThat(moved)
            .as("ms from the kill to the task RUNNING on the survivor")
            .isLessThan(SESSION_TIMEOUT_MS + REBALANCE_DELAY_MS + MARGIN_MS);
        if (round == 1) {
          // A replacement for the dead worker (a new member), for the second round.
          members.add(victim.restart().get());
        }
      }

      Thread.sleep(2_000);
      table.stop();
      List<String> expected = table.sparkChanges();
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(), NAME, expected, Duration.ofSeconds(3), WAIT, false);
      FeedCheck check = new FeedCheck(expected, records);
      System.out.printf(
          "WorkerFailoverIT: writes %s; moves took %s ms; lost=%d duplicated=%d"
              + " total=%d (%s)%n",
          table.operations(),
          moveMillis,
          check.lost,
          check.duplicated,
          check.total,
          check.summary());
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      assertThat(check.orderProblems).as(check.summary()).isEmpty();
    }
  }

  private static Member primary(KafkaCluster cluster) {
    return new Member(
        cluster.rest().workerId(),
        "main worker",
        cluster.rest(),
        cluster::killWorker,
        () -> {
          cluster.startWorker();
          return primary(cluster);
        });
  }

  private static Member additional(KafkaCluster cluster, KafkaCluster.AdditionalWorker worker) {
    return new Member(
        worker.workerId(),
        "additional worker",
        worker.rest(),
        worker::kill,
        () -> additional(cluster, cluster.startAdditionalWorker()));
  }

  /**
   * Waits until the connector and its task are RUNNING and have stayed on the same workers for 3 s
   * (a rebalance after a worker joined may still move them), and returns the task's worker.
   */
  private static String awaitSettledTask(ConnectRest rest) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String placement = null;
    long since = System.nanoTime();
    while (System.nanoTime() < deadline) {
      ConnectRest.Response response = rest.get("/connectors/" + NAME + "/status");
      String now = null;
      if (response.ok()) {
        JsonNode status = response.body();
        JsonNode task = status.path("tasks").path(0);
        if ("RUNNING".equals(status.path("connector").path("state").asText())
            && "RUNNING".equals(task.path("state").asText())
            && status.path("tasks").size() == 1) {
          now =
              status.path("connector").path("worker_id").asText()
                  + "|"
                  + task.path("worker_id").asText();
        }
      }
      if (now == null || !now.equals(placement)) {
        placement = now;
        since = System.nanoTime();
      } else if (System.nanoTime() - since > 3_000_000_000L) {
        return placement.substring(placement.indexOf('|') + 1);
      }
      Thread.sleep(200);
    }
    throw new AssertionError("Connector " + NAME + " never settled; last placement " + placement);
  }
}
