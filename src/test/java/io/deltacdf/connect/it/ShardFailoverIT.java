package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.change.KeyHash;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table split into 4 shards over 2 tasks, one task on each of two workers of one Connect group,
 * while a writer commits versions. The writer commits a large version; a rate limit per task makes
 * each shard take seconds over it, and the worker whose task first sends a row of it is killed
 * (SIGKILL) at once, inside the version. After the session timeout (and the rebalance delay, when
 * the killed worker did not lead the group) the survivor runs both tasks, and the killed worker's
 * shards resume from their stored positions.
 *
 * <p>Without exactly-once, every change of Spark's table_changes arrives, and a duplicate is only a
 * replay: in each partition, the records of one shard repeat a contiguous stretch from the shard's
 * stored position up to where its delivery had got to (see {@link FeedCheck}), and only the killed
 * worker's shards replay: the survivor's task keeps running through the rebalance. With
 * exactly-once (the workers' exactly.once.source.support=enabled, the connector's
 * exactly.once.support=required) the killed shards' open transactions are aborted and a
 * read_committed consumer sees every change exactly once. In both, per key the commit versions of
 * the first deliveries never go back.
 *
 * <p>CI size: a large version of 1,000 rows. {@code -Dshard.failover.rows=N} writes larger ones;
 * the rate limit scales with it, so a shard's part still takes about 5 s (below the harness's
 * transaction timeout of 10 s).
 */
class ShardFailoverIT {

  private static final int ROWS = Integer.getInteger("shard.failover.rows", 1_000);

  /**
   * Per task. A large version has at most 2 change rows per written row, so a shard's part of it
   * (of 4) takes at most ROWS / 2 / RATE = 5 s.
   */
  private static final int RATE = Math.max(100, ROWS / 10);

  private static final int SHARDS = 4;
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String NAME = "shard-failover";

  @TempDir Path dir;

  @Test
  void killedWorkersShardsResumeOnTheSurvivorAndLoseNothing() throws Exception {
    run(false);
  }

  @Test
  void withExactlyOnceKilledWorkersShardsResumeOnTheSurvivorAndSendEveryChangeOnce()
      throws Exception {
    run(true);
  }

  private void run(boolean exactlyOnce) throws Exception {
    String mode = exactlyOnce ? "exactly-once" : "at-least-once";
    try (KafkaCluster cluster =
            KafkaCluster.builder()
                .exactlyOnce(exactlyOnce)
                // Lost workers' tasks stay unassigned this long (5 min by default) in case they
                // come back; a short delay keeps that path in the test.
                .workerProperty("scheduled.rebalance.max.delay.ms", "3000")
                .start();
        ChangingTable table = new ChangingTable(dir.resolve("orders").toString(), 40L, ROWS)) {
      KafkaCluster.AdditionalWorker additional = cluster.startAdditionalWorker();
      ConnectRest mainRest = cluster.rest();
      table.insertRows(ROWS);
      table.write(3);
      ConnectorConfig config =
          ConnectorConfig.forTables(table.path())
              .tasksMax(2)
              .with("table.shards", Integer.toString(SHARDS))
              .topicTemplate(NAME)
              .startMode("earliest")
              .keyColumns("id")
              .pollIntervalMs(200)
              .with("batch.max.rows", "50")
              .with("max.rows.per.second", Integer.toString(RATE));
      if (exactlyOnce) {
        config.exactlyOnce();
      }
      mainRest.putConfig(NAME, config.build());
      Map<Integer, String> workerOfTask = awaitTasksOnBothWorkers(mainRest);
      Map<Integer, Integer> taskOfShard = taskOfShard(mainRest);
      table.start(200);
      Thread.sleep(3_000);
      long large = table.writeLargeVersion();

      List<ConsumerRecord<byte[], byte[]>> seen = awaitFirstRowOf(cluster, large);
      ConsumerRecord<byte[], byte[]> first =
          seen.stream().filter(r -> version(r) == large).findFirst().orElseThrow();
      int victimTask = taskOfShard.get(shard(first));
      String victim = workerOfTask.get(victimTask);
      boolean victimRunsConnector =
          victim.equals(mainRest.status(NAME).path("connector").path("worker_id").asText());
      boolean victimIsMain = victim.equals(mainRest.workerId());
      ConnectRest survivor;
      if (victimIsMain) {
        cluster.killWorker();
        survivor = additional.rest();
      } else {
        additional.kill();
        survivor = mainRest;
      }
      long killedAt = System.nanoTime();
      Set<Integer> victimShards =
          taskOfShard.entrySet().stream()
              .filter(e -> e.getValue() == victimTask)
              .map(Map.Entry::getKey)
              .collect(Collectors.toSet());
      survivor.awaitRunning(NAME, 2, WAIT);
      long movedMs = (System.nanoTime() - killedAt) / 1_000_000;
      Thread.sleep(2_000);
      table.stop();

      List<String> expected = table.sparkChanges();
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(), NAME, expected, Duration.ofSeconds(3), WAIT, exactlyOnce);
      FeedCheck check =
          new FeedCheck(
              expected,
              records,
              r -> "partition " + r.partition() + " shard " + shard(r) + "/" + SHARDS);
      Map<Integer, Long> replayed = duplicatesByShard(records);
      Map<Integer, Long> sentAtKill = largeRowsByShard(seen, large, victimShards);
      Map<Integer, Long> inVersion =
          largeRowsByShard(firstDeliveries(records), large, victimShards);
      System.out.printf(
          "ShardFailoverIT %s: writes %s; killed the %s worker %s (task %d, shards %s%s) when the topic"
              + " held %s of their %s rows of version %d (by shard); both tasks RUNNING on the"
              + " survivor %d ms later; replayed rows by shard %s: %s%n",
          mode,
          table.operations(),
          victimIsMain ? "main" : "additional",
          victim,
          victimTask,
          victimShards,
          victimRunsConnector ? ", and the connector" : "",
          sentAtKill,
          inVersion,
          large,
          movedMs,
          replayed,
          check.summary());
      assertThat(sentAtKill.get(shard(first)))
          .as("rows of version %d of shard %d in the topic at the kill", large, shard(first))
          .isLessThan(inVersion.get(shard(first)));
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      assertThat(check.orderProblems).as(check.summary()).isEmpty();
      if (exactlyOnce) {
        assertThat(check.duplicated).as(check.summary()).isZero();
      }
      // The survivor's own task never stopped: only the moved shards go back.
      assertThat(victimShards).as("shards that replayed").containsAll(replayed.keySet());
      assertThat(ShardsIT.keysGoingBack(firstDeliveries(records))).isEmpty();
      String offsets = survivor.offsets(NAME).toString();
      for (int shard = 0; shard < SHARDS; shard++) {
        assertThat(offsets).contains("\"shard\":\"" + shard + "/" + SHARDS + "\"");
      }
    }
  }

  /**
   * Waits until both tasks are RUNNING, on different workers, and have stayed there for 3 s (a
   * rebalance may still move them); returns each task's worker.
   */
  private static Map<Integer, String> awaitTasksOnBothWorkers(ConnectRest rest)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Map<Integer, String> placement = Map.of();
    long since = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Map<Integer, String> now = new TreeMap<>();
      ConnectRest.Response response = rest.get("/connectors/" + NAME + "/status");
      if (response.ok()) {
        for (JsonNode task : response.body().path("tasks")) {
          if ("RUNNING".equals(task.path("state").asText())) {
            now.put(task.path("id").asInt(), task.path("worker_id").asText());
          }
        }
      }
      if (!now.equals(placement)) {
        placement = now;
        since = System.nanoTime();
      } else if (now.size() == 2
          && new HashSet<>(now.values()).size() == 2
          && System.nanoTime() - since > 3_000_000_000L) {
        return placement;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("The 2 tasks never ran on both workers; last placement " + placement);
  }

  /** The task each shard is assigned to, from the task configs (task.unit.N.shard=i/count). */
  private static Map<Integer, Integer> taskOfShard(ConnectRest rest) {
    Map<Integer, Integer> tasks = new TreeMap<>();
    ConnectRest.Response response = rest.get("/connectors/" + NAME + "/tasks");
    assertThat(response.ok()).as("GET tasks: %s", response).isTrue();
    for (JsonNode task : response.body()) {
      int id = task.path("id").path("task").asInt();
      task.path("config")
          .fields()
          .forEachRemaining(
              setting -> {
                if (setting.getKey().matches("task\\.unit\\.\\d+\\.shard")) {
                  tasks.put(TableShard.parse(setting.getValue().asText()).index(), id);
                }
              });
    }
    assertThat(tasks).as("shards by task").hasSize(SHARDS);
    return tasks;
  }

  /**
   * Reads the topic without read_committed (a transaction still open shows) until a record of
   * version {@code large} arrives; returns all records read.
   */
  private static List<ConsumerRecord<byte[], byte[]>> awaitFirstRowOf(
      KafkaCluster cluster, long large) {
    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readUntil(
            cluster.bootstrapServers(),
            NAME,
            batch -> batch.stream().anyMatch(r -> version(r) == large),
            Duration.ZERO,
            WAIT,
            false);
    assertThat(records).as("a record of version %d", large).anyMatch(r -> version(r) == large);
    return records;
  }

  /** The records of version {@code large} of each of {@code shards}. */
  private static Map<Integer, Long> largeRowsByShard(
      List<ConsumerRecord<byte[], byte[]>> records, long large, Set<Integer> shards) {
    Map<Integer, Long> counts = new TreeMap<>();
    shards.forEach(shard -> counts.put(shard, 0L));
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (version(record) == large && shards.contains(shard(record))) {
        counts.merge(shard(record), 1L, Long::sum);
      }
    }
    return counts;
  }

  /** How many records of each shard repeat an earlier one. */
  private static Map<Integer, Long> duplicatesByShard(
      List<ConsumerRecord<byte[], byte[]>> records) {
    Set<String> delivered = new HashSet<>();
    Map<Integer, Long> counts = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (!delivered.add(ChangingTable.describe(record))) {
        counts.merge(shard(record), 1L, Long::sum);
      }
    }
    return counts;
  }

  /** Each change's first record in topic order. */
  private static List<ConsumerRecord<byte[], byte[]>> firstDeliveries(
      List<ConsumerRecord<byte[], byte[]>> records) {
    Set<String> delivered = new HashSet<>();
    List<ConsumerRecord<byte[], byte[]>> first = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (delivered.add(ChangingTable.describe(record))) {
        first.add(record);
      }
    }
    return first;
  }

  private static long version(ConsumerRecord<byte[], byte[]> record) {
    return TopicReader.longHeader(record, "_commit_version");
  }

  /** The shard of the record's key, as the connector computes it (key.columns=id). */
  private static int shard(ConsumerRecord<byte[], byte[]> record) {
    long id = TopicReader.jsonKey(record.key()).get("id").asLong();
    return TableShard.indexOf(KeyHash.of(new Object[] {id}, new int[] {0}), SHARDS);
  }
}
