package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.TableMetrics;
import io.deltacdf.connect.task.TableShards;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.management.InstanceNotFoundException;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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
 *
 * <p>A second case changes table.shards while the initial snapshot is read in slices (see its
 * test). Both share one broker and worker.
 */
class ShardCountChangeIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String NAME = "reshard";

  /** Rows of the snapshot read in slices; {@code -Dshard.count.slices.rows=N} for more. */
  private static final int SLICED_ROWS = Integer.getInteger("shard.count.slices.rows", 4_000);

  /**
   * Per task, while the snapshot is read in 2 slices: a slice's half of it takes about 15 s,
   * several times what a changed config takes to restart the tasks.
   */
  private static final int SLICED_RATE = Math.max(130, SLICED_ROWS / 30);

  /** A connector (and its topic) of the sliced snapshot, and its shard counts before and after. */
  private record CountChange(String name, int from, int to) {}

  private static final List<CountChange> SLICED_CHANGES =
      List.of(new CountChange("slices-up", 2, 4), new CountChange("slices-down", 3, 1));

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  /** With exactly-once; each test deletes its connectors. */
  @RegisterExtension
  static final SharedCluster shared = new SharedCluster(KafkaCluster.builder().exactlyOnce(true));

  @TempDir Path dir;

  @Test
  void changingTheShardCountMidStreamAndCrashingInTheHandOverSendsEveryChangeOnce()
      throws Exception {
    KafkaCluster cluster = shared.get();
    try (ChangingTable table = new ChangingTable(dir.resolve("orders").toString(), 39L, 500)) {
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
      cluster.rest().delete(NAME);
    }
  }

  /**
   * table.shards raised (2 → 4) on one connector and lowered (3 → 1) on another, both reading the
   * same table from a snapshot in 2 slices (snapshot.max.tasks=2), each PUT on the running
   * connector while its slices are still being sent, and a writer committing versions after the
   * snapshot's. Slices are not shards: they go on from their stored positions, and once both are
   * done the count set last reads the changes after the snapshot. A read_committed consumer of each
   * topic sees Spark's snapshot and every later change exactly once, per key in commit order, and
   * only the new count's partitions store change offsets.
   *
   * <p>The rate limit makes each slice take seconds; that the change landed mid-snapshot is
   * asserted: a slice task restarted with the new config sent snapshot rows (a slice's metrics
   * count the rows of its task instance, so a restart shows as the count going down).
   *
   * <p>CI size: a snapshot of 4,000 rows. {@code -Dshard.count.slices.rows=N} reads a larger one;
   * the rate limit scales with it, so a slice still takes about 15 s.
   */
  @Test
  void changingTheShardCountWhileASlicedSnapshotIsSentSendsTheSnapshotAndEveryChangeOnce()
      throws Exception {
    KafkaCluster cluster = shared.get();
    try (ChangingTable table = new ChangingTable(dir.resolve("sliced").toString(), 41L, 200)) {
      table.write(3);
      ParallelSnapshotIT.insertBulkRows(table.path(), SLICED_ROWS, 16);
      long snapshot = table.latestVersion();
      // Both connectors start together, and both change together, so that neither's change comes
      // late in its slices.
      long created = System.nanoTime();
      for (CountChange change : SLICED_CHANGES) {
        cluster.rest().putConfig(change.name(), sliced(table.path(), change.name(), change.from()));
      }
      for (CountChange change : SLICED_CHANGES) {
        cluster.rest().awaitRunning(change.name(), 2, WAIT);
        // Stored positions inside the snapshot pin its version: the writer's versions come after.
        awaitSlicesInSnapshot(cluster.rest(), change.name());
      }
      table.start(300);
      Map<String, Map<String, Long>> before = new TreeMap<>();
      for (CountChange change : SLICED_CHANGES) {
        before.put(change.name(), sliceRows(cluster, change.name(), table.path()));
        cluster.rest().putConfig(change.name(), sliced(table.path(), change.name(), change.to()));
      }
      long changedMs = (System.nanoTime() - created) / 1_000_000;
      Map<String, Map<String, Long>> resumed =
          awaitSnapshotRowsAfterChanges(cluster, table.path(), before);
      long resumedMs = (System.nanoTime() - created) / 1_000_000;
      for (CountChange change : SLICED_CHANGES) {
        awaitChangesStored(cluster.rest(), change, table.path(), snapshot + 1);
      }
      Thread.sleep(3_000);
      table.stop();

      List<String> expected = table.sparkSnapshotThenChanges(snapshot);
      for (CountChange change : SLICED_CHANGES) {
        String name = change.name();
        List<ConsumerRecord<byte[], byte[]>> records =
            ChangingTable.readEveryChange(
                cluster.bootstrapServers(), name, expected, Duration.ofSeconds(3), WAIT, true);
        FeedCheck check = new FeedCheck(expected, records);
        System.out.printf(
            "ShardCountChangeIT %s: snapshot of version %d (%d rows) in 2 slices at %d rows/s;"
                + " table.shards %d -> %d put %d ms after the connectors were created; by"
                + " %d ms the restarted slice tasks had sent %s snapshot rows; writes %s: %s%n",
            name,
            snapshot,
            SLICED_ROWS,
            SLICED_RATE,
            change.from(),
            change.to(),
            changedMs,
            resumedMs,
            resumed.getOrDefault(name, Map.of()),
            table.operations(),
            check.summary());
        assertThat(resumed.getOrDefault(name, Map.of()))
            .as(
                "%s: snapshot rows sent by slice tasks restarted with table.shards=%d",
                name, change.to())
            .isNotEmpty();
        assertThat(check.lost).as(name + ": " + check.summary()).isZero();
        assertThat(check.unexpected).as(name + ": " + check.summary()).isZero();
        assertThat(check.duplicated).as(name + ": " + check.summary()).isZero();
        assertThat(ShardsIT.keysGoingBack(records)).as(name).isEmpty();
        assertThat(changePartitions(cluster.rest(), name, table.path()).keySet())
            .as("%s: the partitions that stored change offsets", name)
            .isEqualTo(partitionsOf(table.path(), change.to()));
        cluster.rest().delete(name);
      }
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

  private static Map<String, String> sliced(String table, String name, int shards) {
    return ConnectorConfig.forTables(table)
        .tasksMax(2)
        .with("snapshot.max.tasks", "2")
        .with("table.shards", Integer.toString(shards))
        .topicTemplate(name)
        .startMode("snapshot")
        .keyColumns("id")
        .pollIntervalMs(200)
        .with("batch.max.rows", Integer.toString(Math.max(50, SLICED_RATE / 10)))
        .with("max.rows.per.second", Integer.toString(SLICED_RATE))
        // About a transaction a second, far inside the harness's transaction timeout of 10 s.
        .with("transaction.max.rows", Integer.toString(SLICED_RATE))
        .exactlyOnce()
        .build();
  }

  /** Waits until both slices of connector {@code name} stored a position inside the snapshot. */
  private static void awaitSlicesInSnapshot(ConnectRest rest, String name)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    JsonNode offsets = rest.offsets(name);
    while (slicesInSnapshot(offsets) < 2) {
      assertThat(System.nanoTime())
          .as("%s: both slices inside the snapshot; stored %s", name, offsets)
          .isLessThan(deadline);
      Thread.sleep(100);
      offsets = rest.offsets(name);
    }
  }

  private static long slicesInSnapshot(JsonNode offsets) {
    long slices = 0;
    for (JsonNode stored : offsets.path("offsets")) {
      if (stored.path("partition").has("slice")
          && stored.path("offset").path("snapshot").asBoolean()) {
        slices++;
      }
    }
    return slices;
  }

  /**
   * The rows each slice's task instance of connector {@code name} has handed to Connect since it
   * started, by slice; -1 while none runs.
   */
  private static Map<String, Long> sliceRows(KafkaCluster cluster, String name, String table)
      throws Exception {
    Map<String, Long> rows = new TreeMap<>();
    for (int slice = 0; slice < 2; slice++) {
      String label = "snapshot slice " + slice + "/2";
      ObjectName metrics = TableMetrics.objectName(name, table + " (" + label + ")");
      try {
        rows.put(label, (Long) cluster.workerMBeans().getAttribute(metrics, "RowsInserted"));
      } catch (InstanceNotFoundException e) {
        rows.put(label, -1L);
      }
    }
    return rows;
  }

  /**
   * Waits until, for each connector of {@code before} (its slices' rows by slice, sampled before
   * its count changed), a slice task restarted since (its rows went down, or its metrics were gone
   * a moment) has sent rows of the snapshot; returns their count by slice, by connector. A
   * connector is left out when its changes started before any did: its count changed after the
   * snapshot.
   */
  private static Map<String, Map<String, Long>> awaitSnapshotRowsAfterChanges(
      KafkaCluster cluster, String table, Map<String, Map<String, Long>> before) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Map<String, Map<String, Long>> last = new TreeMap<>(before);
    Set<String> restarted = new HashSet<>();
    Map<String, Map<String, Long>> resumed = new TreeMap<>();
    Set<String> done = new HashSet<>();
    for (int round = 0; done.size() < before.size() && System.nanoTime() < deadline; round++) {
      for (String name : before.keySet()) {
        if (done.contains(name)) {
          continue;
        }
        Map<String, Long> now = sliceRows(cluster, name, table);
        for (Map.Entry<String, Long> slice : now.entrySet()) {
          String id = name + " " + slice.getKey();
          if (slice.getValue() < last.get(name).get(slice.getKey())) {
            restarted.add(id);
          }
          if (restarted.contains(id) && slice.getValue() > 0) {
            resumed
                .computeIfAbsent(name, n -> new TreeMap<>())
                .put(slice.getKey(), slice.getValue());
          }
        }
        last.put(name, now);
        if (resumed.containsKey(name)
            || (round % 10 == 0 && !changePartitions(cluster.rest(), name, table).isEmpty())) {
          done.add(name);
        }
      }
      Thread.sleep(100);
    }
    return resumed;
  }

  /**
   * Waits until every partition of the changed count stored a position at or past {@code version}:
   * the slices are done and the changes are read in the new count.
   */
  private static void awaitChangesStored(
      ConnectRest rest, CountChange change, String table, long version)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Set<String> wanted = partitionsOf(table, change.to());
    Map<String, Long> stored = changePartitions(rest, change.name(), table);
    while (!stored.keySet().containsAll(wanted)
        || stored.values().stream().anyMatch(v -> v < version)) {
      assertThat(System.nanoTime())
          .as(
              "%s: %s stored at version %d or later; stored %s",
              change.name(), wanted, version, stored)
          .isLessThan(deadline);
      Thread.sleep(200);
      stored = changePartitions(rest, change.name(), table);
    }
  }

  /** The stored version of every change partition (not a slice) of connector {@code name}. */
  private static Map<String, Long> changePartitions(ConnectRest rest, String name, String table) {
    Map<String, Long> versions = new TreeMap<>();
    for (JsonNode stored : rest.offsets(name).path("offsets")) {
      TablePartition partition =
          TablePartition.fromMap(JSON.convertValue(stored.path("partition"), MAP));
      if (partition.table().equals(table) && partition.slice() == null) {
        versions.put(partition.describe(), stored.path("offset").path("version").asLong());
      }
    }
    return versions;
  }

  /** The change partitions of {@code table} in {@code count} shards, described. */
  private static Set<String> partitionsOf(String table, int count) {
    return TableShards.units(table, count, null).stream()
        .map(unit -> unit.partition().describe())
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
