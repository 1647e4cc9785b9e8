package io.deltacdf.connect.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.TaskSettings;
import io.deltacdf.connect.task.TaskUnit;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.StoredOffsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connector's steps with a parallel snapshot, through a fake offset reader: the slices go to
 * tasks, Connect is asked for new task configurations once, when the last slice is complete, and
 * then one task reads the table's changes from the version after the snapshot.
 */
class SliceFollowerTest {

  private static final String TABLE = "file:/data/orders";

  private final StoredOffsets offsets = new StoredOffsets();
  private final AtomicInteger reconfigurations = new AtomicInteger();
  private final Map<String, String> settings =
      ConnectorConfig.forTables(TABLE).with("tasks.max", "4", "snapshot.max.tasks", "4").build();
  // A slice has stored a position: the connector needs the offsets only, not the table.
  private final SlicePlanner slices =
      new SlicePlanner(
          new DeltaCdfSourceConfig(settings),
          offsets,
          table -> {
            throw new AssertionError("table " + table + " was opened");
          });
  private final SliceFollower follower =
      new SliceFollower(slices, reconfigurations::incrementAndGet);

  @AfterEach
  void stop() {
    follower.stop();
  }

  @Test
  void slicesGoToTasksUntilAllAreCompleteThenOneTaskReadsTheChanges() {
    store(new SnapshotSlice(0, 2), new ChangePosition.InSnapshot(5, "part-3.parquet", 40));
    List<Map<String, String>> slicing = taskConfigs();
    assertThat(slicing)
        .extracting(SliceFollowerTest::units)
        .containsExactly(
            List.of(TaskUnit.slice(TABLE, 5, new SnapshotSlice(0, 2))),
            List.of(TaskUnit.slice(TABLE, 5, new SnapshotSlice(1, 2))));

    follower.check();
    store(new SnapshotSlice(0, 2), ChangePosition.InVersion.start(6));
    follower.check();
    assertThat(reconfigurations).as("one slice is still being read").hasValue(0);

    store(new SnapshotSlice(1, 2), ChangePosition.InVersion.start(6));
    follower.check();
    follower.check();
    assertThat(reconfigurations).hasValue(1);

    List<Map<String, String>> streaming = taskConfigs();
    assertThat(streaming).hasSize(1);
    assertThat(units(streaming.get(0))).containsExactly(TaskUnit.afterSlices(TABLE, 5));
    int lookups = offsets.lookups();
    follower.check();
    assertThat(offsets.lookups()).as("nothing left to follow").isEqualTo(lookups);
  }

  @Test
  void withoutSlicesNothingIsFollowed() {
    follower.follow(List.of());
    follower.check();

    assertThat(offsets.lookups()).isZero();
    assertThat(reconfigurations).hasValue(0);
  }

  /** What the connector's taskConfigs(4) does. */
  private List<Map<String, String>> taskConfigs() {
    TaskPlan plan = TaskPlan.of(slices, List.of(TABLE), 4);
    follower.follow(plan.sliced());
    return TaskConfigs.of(settings, plan.units(), 4);
  }

  private static List<TaskUnit> units(Map<String, String> taskConfig) {
    return TaskSettings.units(taskConfig);
  }

  private void store(SnapshotSlice slice, ChangePosition position) {
    offsets.put(new TablePartition(TABLE, slice).toMap(), OffsetCodec.toMap(position));
  }
}
