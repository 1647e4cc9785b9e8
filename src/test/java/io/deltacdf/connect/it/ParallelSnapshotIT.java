package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's initial snapshot read in four slices by four tasks on two workers
 * (snapshot.max.tasks=4, tasks.max=4) while the table keeps changing. The additional worker is
 * killed with SIGKILL in the middle of the snapshot; its slices move to the survivor and resume
 * from their last committed offsets. Once every slice is done, one task reads the changes. The
 * topic must hold Spark's snapshot of the pinned version and Spark's table_changes after it:
 * nothing lost, nothing unexpected, and per key the snapshot row before its changes. A second case
 * changes the slice count before the first offset flush.
 *
 * <p>Size: {@code -Dparallel.snapshot.rows=3000000} for the full size; CI reads 200,000 rows (and
 * 20,000 in the second case, {@code -Dparallel.snapshot.recut.rows}).
 */
class ParallelSnapshotIT {

  private static final long ROWS = Long.getLong("parallel.snapshot.rows", 200_000);

  /** Ids of the bulk rows start here, away from those the background writer makes. */
  private static final long BULK_IDS = 1_000_000_000_000L;

  /** Rows of the snapshot whose slice count changes before the first offset flush. */
  private static final long RECUT_ROWS = Long.getLong("parallel.snapshot.recut.rows", 20_000);

  private static final Duration WAIT = Duration.ofSeconds(Math.max(180, ROWS / 10_000));
  private static final String NAME = "parallel-snapshot";

  @TempDir Path dir;

  @Test
  void slicesOnTwoWorkersSurviveAKillAndHandOverToTheChanges() throws Exception {
    try (KafkaCluster cluster =
            KafkaCluster.builder()
                .workerProperty("scheduled.rebalance.max.delay.ms", "3000")
                .workerLogLevel("INFO")
                .start();
        ChangingTable table = new ChangingTable(dir.resolve("big").toString(), 15L, 2_000)) {
      KafkaCluster.AdditionalWorker second = cluster.startAdditionalWorker();
      table.write(3);
      insertBulkRows(table.path(), ROWS, 16);
      long snapshotVersion = table.latestVersion();

      Map<String, String> config =
          ConnectorConfig.forTables(table.path())
              .tasksMax(4)
              .with("snapshot.max.tasks", "4")
              .topicTemplate(NAME)
              .startMode("snapshot")
              .keyColumns("id")
              .pollIntervalMs(200)
              .with("batch.max.rows", "2000")
              .build();
      cluster.rest().putConfig(NAME, config);
      awaitTasksRunningOnBothWorkers(cluster.rest());
      table.start(300);

      // Killed as soon as a slice has committed an offset inside the snapshot.
      JsonNode atKill = cluster.rest().offsets(NAME);
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!atKill.toString().contains("\"snapshot\":true") && System.nanoTime() < deadline) {
        Thread.sleep(200);
        atKill = cluster.rest().offsets(NAME);
      }
      second.kill();
      long killedAt = System.nanoTime();
      System.out.printf(
          "ParallelSnapshotIT: rows=%d snapshot version=%d; offsets when the"
              + " additional worker was killed: %s%n",
          ROWS, snapshotVersion, atKill);
      assertThat(atKill.toString())
          .as("killed in the middle of the snapshot")
          .contains("\"snapshot\":true");

      try {
        cluster.rest().awaitRunning(NAME, 1, WAIT); // the changes' task, after every slice
      } catch (AssertionError e) {
        try (java.util.stream.Stream<String> lines =
            java.nio.file.Files.lines(cluster.workerLog())) {
          lines
              .filter(l -> l.contains("slice") || l.contains("WARN") || l.contains("ERROR"))
              .limit(200)
              .forEach(System.out::println);
        }
        System.out.println("offsets at the end: " + cluster.rest().offsets(NAME));
        throw e;
      }
      long handedOverMs = (System.nanoTime() - killedAt) / 1_000_000;
      Thread.sleep(3_000);
      table.stop();
      List<String> expected = table.sparkSnapshotThenChanges(snapshotVersion);
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(), NAME, expected, Duration.ofSeconds(3), WAIT, false);
      FeedCheck check = new FeedCheck(expected, records);
      List<String> outOfOrder = keysWithChangesBeforeTheirSnapshotRow(records, snapshotVersion);
      System.out.printf(
          "ParallelSnapshotIT: %d ms from the kill to the changes' task RUNNING;"
              + " writes %s; lost=%d duplicated=%d total=%d keys out of order=%d (%s)%n",
          handedOverMs,
          table.operations(),
          check.lost,
          check.duplicated,
          check.total,
          outOfOrder.size(),
          check.summary());
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      assertThat(outOfOrder).isEmpty();
    }
  }

  /**
   * snapshot.max.tasks=3 and tasks.max=3, then the config PUT again with snapshot.max.tasks=2
   * before any slice stored an offset: the connector plans 2 slices, and then the 3 stopped tasks
   * flush their offsets. The stored cut (3 slices) wins: the whole snapshot arrives, then the
   * changes written after it. Only snapshot rows may arrive twice (docs/start-and-offsets.md: "rows
   * the losing slices sent arrive twice"); every change arrives once, after its key's snapshot row.
   */
  @Test
  void aSliceCountChangedBeforeTheFirstOffsetFlushEndsInTheSnapshotAndItsChanges()
      throws Exception {
    String name = "recut-snapshot";
    // A flush far off: the second PUT surely comes before it.
    try (KafkaCluster cluster =
            KafkaCluster.builder().workerProperty("offset.flush.interval.ms", "15000").start();
        ChangingTable table = new ChangingTable(dir.resolve("recut").toString(), 16L, 500)) {
      table.write(3);
      insertBulkRows(table.path(), RECUT_ROWS, 12);
      long snapshotVersion = table.latestVersion();

      cluster.rest().putConfig(name, slicedConfig(table.path(), name, 3));
      TopicReader.readUntil(
          cluster.bootstrapServers(), name, batch -> true, Duration.ZERO, WAIT, false);
      assertThat(cluster.rest().offsets(name).path("offsets"))
          .as("no offset flushed before the slice count changes")
          .isEmpty();
      cluster.rest().putConfig(name, slicedConfig(table.path(), name, 2));

      cluster.rest().awaitRunning(name, 1, WAIT); // the changes' task, after every slice
      assertThat(cluster.rest().offsets(name).toString())
          .as("offsets of the 3-slice tasks, stored after the 2-slice plan was made")
          .containsPattern("\"slice\":\"[0-2]/3\"");
      table.write(5);
      List<String> expected = table.sparkSnapshotThenChanges(snapshotVersion);
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(), name, expected, Duration.ofSeconds(3), WAIT, false);
      FeedCheck check = new FeedCheck(expected, records);
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      String snapshotRow = "v" + snapshotVersion + " insert ";
      assertThat(
              records.stream()
                  .collect(Collectors.groupingBy(ChangingTable::describe, Collectors.counting()))
                  .entrySet()
                  .stream()
                  .filter(e -> e.getValue() > 1 && !e.getKey().startsWith(snapshotRow))
                  .map(Map.Entry::getKey))
          .as("only snapshot rows arrive twice")
          .isEmpty();
      assertThat(keysWithChangesBeforeTheirSnapshotRow(records, snapshotVersion)).isEmpty();
    }
  }

  /** One commit of {@code rows} rows of ids from {@link #BULK_IDS} on, in {@code files} files. */
  static void insertBulkRows(String path, long rows, int files) {
    sql(
        "INSERT INTO delta.`%s` SELECT /*+ REPARTITION(%d) */ id, CAST(id %% 4 AS INT), id * 10,"
            + " concat('n', id) FROM range(%d, %d)",
        path, files, BULK_IDS, BULK_IDS + rows);
  }

  private static Map<String, String> slicedConfig(String path, String topic, int snapshotTasks) {
    return ConnectorConfig.forTables(path)
        .tasksMax(3)
        .with("snapshot.max.tasks", Integer.toString(snapshotTasks))
        .topicTemplate(topic)
        .startMode("snapshot")
        .keyColumns("id")
        .pollIntervalMs(200)
        .with("batch.max.rows", "500")
        .build();
  }

  /** Waits until the connector's four slice tasks are RUNNING, on both workers. */
  private static void awaitTasksRunningOnBothWorkers(ConnectRest rest) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    JsonNode status = null;
    while (System.nanoTime() < deadline) {
      ConnectRest.Response response = rest.get("/connectors/" + NAME + "/status");
      status = response.ok() ? response.body() : null;
      JsonNode tasks = status == null ? null : status.path("tasks");
      if (tasks == null) {
        Thread.sleep(200);
        continue;
      }
      java.util.Set<String> workers = new java.util.HashSet<>();
      boolean running = tasks.size() == 4;
      for (JsonNode task : tasks) {
        running &= "RUNNING".equals(task.path("state").asText());
        workers.add(task.path("worker_id").asText());
      }
      if (running && workers.size() == 2) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("The four slice tasks never ran on both workers: " + status);
  }

  /**
   * Keys whose first record of a version after the snapshot comes, in their partition, before their
   * snapshot row.
   */
  private static List<String> keysWithChangesBeforeTheirSnapshotRow(
      List<ConsumerRecord<byte[], byte[]>> records, long snapshotVersion) {
    Map<String, Boolean> snapshotSeen = new HashMap<>();
    Map<String, String> problems = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (record.value() == null) {
        continue; // a tombstone
      }
      String key = record.partition() + "/" + TopicReader.jsonValue(record.value()).get("id");
      long version = TopicReader.longHeader(record, "_commit_version");
      if (version == snapshotVersion) {
        snapshotSeen.put(key, true);
      } else if (!snapshotSeen.containsKey(key)) {
        snapshotSeen.put(key, false);
      }
    }
    // A key first seen after the snapshot must not have a snapshot row later on.
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (record.value() == null) {
        continue;
      }
      String key = record.partition() + "/" + TopicReader.jsonValue(record.value()).get("id");
      if (Boolean.FALSE.equals(snapshotSeen.get(key))
          && TopicReader.longHeader(record, "_commit_version") == snapshotVersion) {
        problems.put(key, ChangingTable.describe(record));
      }
    }
    return List.copyOf(problems.values());
  }
}
