package io.deltacdf.connect.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.SnapshotSlices;
import io.deltacdf.connect.task.TaskUnit;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.StoredOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What the connector hands its tasks of a table whose snapshot may be read in slices, decided from
 * the stored offsets alone (the table is opened only when nothing is stored).
 */
class SlicePlannerTest {

  private static final String TABLE = "s3a://bucket/orders";

  private final StoredOffsets offsets = new StoredOffsets();
  private final List<String> opened = new ArrayList<>();

  private SlicePlanner slices(int snapshotMaxTasks, ChangePosition configuredStart) {
    Function<String, ChangePosition> start =
        table -> {
          opened.add(table);
          return configuredStart;
        };
    Map<String, String> settings =
        ConnectorConfig.forTables(TABLE)
            .with("snapshot.max.tasks", Integer.toString(snapshotMaxTasks))
            .build();
    return new SlicePlanner(new DeltaCdfSourceConfig(settings), offsets, start);
  }

  @Test
  void aFreshSnapshotIsSlicedUpToTheSettingAndTasksMax() {
    SlicePlanner.Plan plan = slices(3, ChangePosition.InSnapshot.start(7)).plan(TABLE, 4);
    assertThat(plan.sliced()).isEqualTo(new SnapshotSlices.Sliced(TABLE, 7, 3));
    assertThat(plan.units())
        .containsExactly(
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(0, 3)),
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(1, 3)),
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(2, 3)));
    assertThat(slices(8, ChangePosition.InSnapshot.start(7)).plan(TABLE, 2).units()).hasSize(2);
    assertThat(slices(8, ChangePosition.InSnapshot.start(7)).plan(TABLE, 1).units())
        .containsExactly(TaskUnit.table(TABLE));
  }

  @Test
  void aStartThatIsNoSnapshotOrAStoredTableOffsetReadsTheTableWhole() {
    assertThat(slices(4, ChangePosition.InVersion.start(8)).plan(TABLE, 4).units())
        .containsExactly(TaskUnit.table(TABLE));
    opened.clear();
    offsets.put(new TablePartition(TABLE).toMap(), Map.of("version", 12L));
    SlicePlanner.Plan plan = slices(4, ChangePosition.InSnapshot.start(20)).plan(TABLE, 4);
    assertThat(plan.units()).containsExactly(TaskUnit.table(TABLE));
    assertThat(plan.sliced()).isNull();
    assertThat(opened).as("tables opened").isEmpty();
  }

  @Test
  void storedSlicesPinTheirCountAndVersionWhateverTheSettingAndTableSayNow() {
    store(new SnapshotSlice(1, 3), new ChangePosition.InSnapshot(7, "part-1.parquet", 10));
    SlicePlanner.Plan plan = slices(5, ChangePosition.InSnapshot.start(9)).plan(TABLE, 8);
    assertThat(plan.sliced()).isEqualTo(new SnapshotSlices.Sliced(TABLE, 7, 3));
    assertThat(plan.units()).hasSize(3).allMatch(u -> u.start().version() == 7);
    assertThat(opened).isEmpty();
  }

  @Test
  void onceEverySliceIsCompleteOneTaskReadsTheChangesAfterTheSnapshot() {
    SlicePlanner slices = slices(3, ChangePosition.InSnapshot.start(9));
    SnapshotSlices.Sliced sliced = new SnapshotSlices.Sliced(TABLE, 7, 3);
    store(new SnapshotSlice(0, 3), ChangePosition.InVersion.start(8));
    store(new SnapshotSlice(1, 3), ChangePosition.InVersion.start(8));
    store(new SnapshotSlice(2, 3), new ChangePosition.InSnapshot(7, "part-9.parquet", 3));
    assertThat(slices.progress(sliced)).isEqualTo(SlicePlanner.Progress.READING);
    assertThat(slices.plan(TABLE, 3).sliced()).isEqualTo(sliced);

    store(new SnapshotSlice(2, 3), ChangePosition.InVersion.start(8));
    assertThat(slices.progress(sliced)).isEqualTo(SlicePlanner.Progress.COMPLETE);
    SlicePlanner.Plan plan = slices.plan(TABLE, 3);
    assertThat(plan.sliced()).isNull();
    assertThat(plan.units()).containsExactly(TaskUnit.afterSlices(TABLE, 7));
    assertThat(plan.units().get(0).start()).isEqualTo(ChangePosition.InVersion.start(8));
  }

  /**
   * Tasks of an old and a new plan overlapped and both stored slice offsets: the oldest snapshot
   * version wins (the changes after it bring a newer cut's rows up to date), and the plan of any
   * other cut is told to give way.
   */
  @Test
  void ofTwoStoredCutsTheOldestVersionWins() {
    store(new SnapshotSlice(0, 2), ChangePosition.InSnapshot.start(9));
    store(new SnapshotSlice(1, 3), new ChangePosition.InSnapshot(7, "part-1.parquet", 10));
    SlicePlanner slices = slices(2, ChangePosition.InSnapshot.start(9));

    SnapshotSlices.Sliced oldest = new SnapshotSlices.Sliced(TABLE, 7, 3);
    assertThat(slices.plan(TABLE, 2).sliced()).isEqualTo(oldest);
    assertThat(slices.progress(oldest)).isEqualTo(SlicePlanner.Progress.READING);
    assertThat(slices.progress(new SnapshotSlices.Sliced(TABLE, 9, 2)))
        .isEqualTo(SlicePlanner.Progress.OTHER_CUT);
  }

  /**
   * Of two slice counts stored for one version, a complete one ends the snapshot; else the larger
   * count goes on, whatever the settings say now.
   */
  @Test
  void ofTwoCountsOfOneVersionACompleteOneWinsElseTheLarger() {
    store(new SnapshotSlice(0, 2), new ChangePosition.InSnapshot(7, "part-1.parquet", 10));
    store(new SnapshotSlice(2, 3), ChangePosition.InSnapshot.start(7));
    SlicePlanner slices = slices(2, ChangePosition.InSnapshot.start(9));
    assertThat(slices.plan(TABLE, 2).sliced()).isEqualTo(new SnapshotSlices.Sliced(TABLE, 7, 3));

    store(new SnapshotSlice(0, 2), ChangePosition.InVersion.start(8));
    store(new SnapshotSlice(1, 2), ChangePosition.InVersion.start(8));
    assertThat(slices.progress(new SnapshotSlices.Sliced(TABLE, 7, 3)))
        .isEqualTo(SlicePlanner.Progress.COMPLETE);
    assertThat(slices.plan(TABLE, 2).units()).containsExactly(TaskUnit.afterSlices(TABLE, 7));
  }

  @Test
  void shardsReadATableThatIsNotSlicedAndFollowSlicesOnceTheyAreComplete() {
    Map<String, String> settings =
        ConnectorConfig.forTables(TABLE)
            .with("snapshot.max.tasks", "2")
            .with("table.shards", "3")
            .with("key.columns", "id")
            .build();
    SlicePlanner sharded =
        new SlicePlanner(
            new DeltaCdfSourceConfig(settings), offsets, t -> ChangePosition.InVersion.start(4));
    assertThat(sharded.plan(TABLE, 4).units())
        .containsExactly(
            TaskUnit.shard(TABLE, new TableShard(0, 3)),
            TaskUnit.shard(TABLE, new TableShard(1, 3)),
            TaskUnit.shard(TABLE, new TableShard(2, 3)));

    store(new SnapshotSlice(0, 2), ChangePosition.InVersion.start(8));
    store(new SnapshotSlice(1, 2), ChangePosition.InVersion.start(8));
    assertThat(sharded.plan(TABLE, 4).units())
        .containsExactly(
            TaskUnit.afterSlices(TABLE, 7, new TableShard(0, 3)),
            TaskUnit.afterSlices(TABLE, 7, new TableShard(1, 3)),
            TaskUnit.afterSlices(TABLE, 7, new TableShard(2, 3)));
  }

  /**
   * Slices are not shards: table.shards changed while a sliced snapshot is read leaves the slices
   * as their offsets fix them, and once they are all done the shards of the count set last start
   * after the snapshot. No shard stored anything, so there is nothing to hand over.
   */
  @Test
  void aShardCountChangedWhileSlicesAreReadAppliesOnceTheyAreDone() {
    SnapshotSlices.Sliced sliced = new SnapshotSlices.Sliced(TABLE, 7, 2);
    store(new SnapshotSlice(0, 2), ChangePosition.InVersion.start(8));
    store(new SnapshotSlice(1, 2), new ChangePosition.InSnapshot(7, "part-3.parquet", 40));
    for (int shards : new int[] {2, 3, 1}) {
      SlicePlanner.Plan plan = sharded(shards).plan(TABLE, 4);
      assertThat(plan.sliced()).as("table.shards=%d", shards).isEqualTo(sliced);
      assertThat(plan.units()).isEqualTo(sliced.units());
    }

    store(new SnapshotSlice(1, 2), ChangePosition.InVersion.start(8));
    assertThat(sharded(3).plan(TABLE, 4).units())
        .containsExactly(
            TaskUnit.afterSlices(TABLE, 7, new TableShard(0, 3)),
            TaskUnit.afterSlices(TABLE, 7, new TableShard(1, 3)),
            TaskUnit.afterSlices(TABLE, 7, new TableShard(2, 3)));
    assertThat(sharded(1).plan(TABLE, 4).units()).containsExactly(TaskUnit.afterSlices(TABLE, 7));
  }

  private SlicePlanner sharded(int shards) {
    Map<String, String> settings =
        ConnectorConfig.forTables(TABLE)
            .with("snapshot.max.tasks", "2")
            .with("table.shards", Integer.toString(shards))
            .with("key.columns", "id")
            .build();
    return new SlicePlanner(
        new DeltaCdfSourceConfig(settings), offsets, t -> ChangePosition.InSnapshot.start(9));
  }

  @Test
  void aStoredShardOffsetMeansTheSnapshotIsNotSlicedAgain() {
    offsets.put(new TablePartition(TABLE, new TableShard(1, 2)).toMap(), Map.of("version", 12L));
    SlicePlanner.Plan plan = slices(4, ChangePosition.InSnapshot.start(20)).plan(TABLE, 4);
    assertThat(plan.sliced()).isNull();
    assertThat(opened).as("tables opened").isEmpty();
  }

  private void store(SnapshotSlice slice, ChangePosition position) {
    offsets.put(new TablePartition(TABLE, slice).toMap(), OffsetCodec.toMap(position));
  }
}
