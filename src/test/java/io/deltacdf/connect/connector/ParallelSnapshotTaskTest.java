package io.deltacdf.connect.connector;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.TaskSettings;
import io.deltacdf.connect.task.TaskUnit;
import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tasks reading the slices of a snapshot, then the task that reads the table's changes after it, as
 * the connector hands them out: every row once, every slice's offset at the version after the
 * snapshot (also a slice without a single file, with heartbeats off), then only the changes after
 * the snapshot.
 */
class ParallelSnapshotTaskTest {

  private static final String HEARTBEATS = "slices-heartbeats";

  @TempDir Path dir;

  @ParameterizedTest(name = "exactly-once {0}")
  @ValueSource(booleans = {false, true})
  void slicesReadEveryRowOnceAndStoreTheirEndThenTheChangesFollow(boolean exactlyOnce)
      throws Exception {
    String path = dir.resolve("sliced").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` SELECT /*+ REPARTITION(3) */ id, 'n' FROM range(0, 30)", path);
    long version = 1;
    ConnectorConfig connector =
        ConnectorConfig.forTables(path)
            .with("name", "slices", "heartbeat.interval.ms", "0", "batch.max.rows", "7")
            .with("heartbeat.topic", HEARTBEATS);
    if (exactlyOnce) {
      connector.exactlyOnce();
    }
    SimulatedWorker worker = new SimulatedWorker(exactlyOnce);
    // More slices than files: some slices have no file at all.
    int count = 6;
    for (int i = 0; i < count; i++) {
      SnapshotSlice slice = new SnapshotSlice(i, count);
      worker.start(task(connector, TaskUnit.slice(path, version, slice)));
      worker.poll(12);
      worker.stop();
      assertThat(worker.storedPosition(new TablePartition(path, slice).toMap()))
          .as("slice %s", slice.label())
          .isEqualTo(ChangePosition.InVersion.start(version + 1));
    }
    assertThat(ids(worker.delivered()))
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 30).boxed().toList());

    sql("UPDATE delta.`%s` SET name = 'u' WHERE id < 2", path);
    int before = worker.delivered().size();
    worker.start(task(connector, TaskUnit.afterSlices(path, version)));
    worker.poll(5);
    worker.stop();
    List<SourceRecord> changes =
        changeRecords(worker.delivered().subList(before, worker.delivered().size()));
    assertThat(changes).hasSize(4); // a pre- and a post-image per updated row
    assertThat(changes)
        .extracting(r -> r.headers().lastWithName("_change_type").value())
        .containsOnly("update_preimage", "update_postimage");
    // The last change ends version + 1: its offset is the start of the next version.
    assertThat(OffsetCodec.fromMap(changes.get(3).sourceOffset()))
        .isEqualTo(ChangePosition.InVersion.start(version + 2));
  }

  /**
   * The connector was restarted before the first offset flush and planned the slices anew at a
   * newer version, while its old tasks flushed their offsets of the old snapshot as they stopped. A
   * slice without an offset of its own reads the snapshot its siblings stored, so the snapshot is
   * one cut: every row of it once, nothing of the newer version.
   */
  @Test
  void aSliceReplannedAtANewerVersionReadsTheSnapshotItsSiblingsStored() throws Exception {
    String path = dir.resolve("replanned").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` SELECT /*+ REPARTITION(4) */ id, 'n' FROM range(0, 40)", path);
    ConnectorConfig connector =
        ConnectorConfig.forTables(path)
            .with("name", "replanned", "heartbeat.interval.ms", "0", "batch.max.rows", "3")
            .with("heartbeat.topic", HEARTBEATS);
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(task(connector, TaskUnit.slice(path, 1, new SnapshotSlice(0, 2))));
    worker.poll(); // the old task of slice 0 stores a position inside the snapshot of version 1
    worker.stop();
    sql("INSERT INTO delta.`%s` VALUES (100, 'later')", path); // version 2

    // The new plan: the snapshot of version 2, in the same two slices.
    for (SnapshotSlice slice : List.of(new SnapshotSlice(1, 2), new SnapshotSlice(0, 2))) {
      worker.start(task(connector, TaskUnit.slice(path, 2, slice)));
      worker.poll(30);
      worker.stop();
    }

    assertThat(ids(worker.delivered()))
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 40).boxed().toList());
    for (int i = 0; i < 2; i++) {
      assertThat(worker.storedPosition(new TablePartition(path, new SnapshotSlice(i, 2)).toMap()))
          .as("slice %d/2", i)
          .isEqualTo(ChangePosition.InVersion.start(2L));
    }
  }

  /**
   * snapshot.max.tasks lowered from 3 to 2 before the first offset flush: the connector planned 2
   * slices while the old tasks of 3 slices flushed their offsets as they stopped. The new slices
   * give way to the stored count, the connector plans it again, and the snapshot ends in the whole
   * table followed by its changes.
   */
  @Test
  void aSliceCountChangedBeforeTheFirstOffsetFlushEndsInTheSnapshotThenTheChanges()
      throws Exception {
    String path = dir.resolve("recounted").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` SELECT /*+ REPARTITION(6) */ id, 'n' FROM range(0, 60)", path);
    ConnectorConfig connector =
        ConnectorConfig.forTables(path)
            .with("name", "recounted", "heartbeat.interval.ms", "0", "batch.max.rows", "4")
            .with("tasks.max", "3", "heartbeat.topic", HEARTBEATS);
    SimulatedWorker worker = new SimulatedWorker(false);
    List<Map<String, String>> old;
    try (Connector before = new Connector(connector.with("snapshot.max.tasks", "3"), worker)) {
      old = before.taskConfigs();
    }
    try (Connector lowered = new Connector(connector.with("snapshot.max.tasks", "2"), worker)) {
      readAsTheLoweredConnectorPlans(path, worker, old, lowered);
    }
  }

  /** Old tasks flush 3-slice offsets after the 2-slice plan; then the tasks read as planned. */
  private void readAsTheLoweredConnectorPlans(
      String path, SimulatedWorker worker, List<Map<String, String>> old, Connector lowered)
      throws InterruptedException {
    List<Map<String, String>> tasks = lowered.taskConfigs();
    assertThat(tasks).as("planned before any offset was stored").hasSize(2);
    for (Map<String, String> task : old.subList(0, 2)) {
      worker.start(task); // an old task stores a position inside its slice as it stops
      worker.poll();
      worker.stop();
    }

    for (int round = 0; round < 4 && !readsTheChanges(tasks); round++) {
      for (Map<String, String> task : tasks) {
        worker.start(task);
        worker.poll(30);
        worker.stop();
      }
      tasks = lowered.follow(tasks);
    }
    assertThat(tasks).as("the table's changes are read by one task").hasSize(1);
    assertThat(readsTheChanges(tasks)).isTrue();
    assertThat(Set.copyOf(ids(worker.delivered())))
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 60).boxed().toList());

    sql("UPDATE delta.`%s` SET name = 'u' WHERE id = 5", path);
    int snapshot = worker.delivered().size();
    worker.start(tasks.get(0));
    worker.poll(5);
    worker.stop();
    assertThat(changeRecords(worker.delivered().subList(snapshot, worker.delivered().size())))
        .extracting(r -> r.headers().lastWithName("_change_type").value())
        .containsExactly("update_preimage", "update_postimage");
  }

  /** A connector's plan and slice follower, over the offsets {@code worker} stored. */
  private static final class Connector implements AutoCloseable {
    private final Map<String, String> settings;
    private final SlicePlanner slices;
    private final AtomicInteger reconfigurations = new AtomicInteger();
    private final SliceFollower follower;
    private int applied;

    Connector(ConnectorConfig connector, SimulatedWorker worker) {
      settings = connector.build();
      slices = SlicePlanner.of(new DeltaCdfSourceConfig(settings), worker.offsetReader());
      follower = new SliceFollower(slices, reconfigurations::incrementAndGet);
    }

    /** What the connector's taskConfigs(3) does. */
    List<Map<String, String>> taskConfigs() {
      TaskPlan plan = TaskPlan.of(slices, new DeltaCdfSourceConfig(settings).namedTables(), 3);
      follower.follow(plan.sliced());
      return TaskConfigs.of(settings, plan.units(), 3);
    }

    /**
     * The follower's check (also run by its own periodic check meanwhile): new task configurations
     * when it asked for them.
     */
    List<Map<String, String>> follow(List<Map<String, String>> current) {
      follower.check();
      if (reconfigurations.get() == applied) {
        return current;
      }
      applied = reconfigurations.get();
      return taskConfigs();
    }

    @Override
    public void close() {
      follower.stop();
    }
  }

  private static boolean readsTheChanges(List<Map<String, String>> tasks) {
    return tasks.stream()
        .flatMap(t -> TaskSettings.units(t).stream())
        .noneMatch(u -> u.partition().slice() != null);
  }

  /** The settings of a task that reads {@code unit}, as the connector hands it out. */
  private static Map<String, String> task(ConnectorConfig connector, TaskUnit unit) {
    return TaskSettings.forUnits(connector.build(), List.of(unit));
  }

  private static List<SourceRecord> changeRecords(List<SourceRecord> records) {
    return records.stream().filter(r -> !r.topic().equals(HEARTBEATS)).toList();
  }

  private static List<Long> ids(List<SourceRecord> records) {
    List<Long> ids = new ArrayList<>();
    for (SourceRecord record : changeRecords(records)) {
      ids.add(((Struct) record.value()).getInt64("id"));
    }
    return ids;
  }
}
