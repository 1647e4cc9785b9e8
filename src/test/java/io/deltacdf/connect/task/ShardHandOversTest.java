package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.SignalState;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.StoredOffsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * A table or shard takes over from the offsets its table's changes stored under other shard counts
 * (table.shards was changed): from a version start at or before all of them, with their positions
 * as its hand-over until it passes them; or fails its task saying what was found and what to do.
 */
class ShardHandOversTest {

  private static final String TABLE = "s3a://bucket/orders";
  private static final TableIdentity ID = new TableIdentity("delta-id", null);

  private static StoredOffset at(ChangePosition position) {
    return new StoredOffset(position, ID, HiddenColumns.NONE, SignalState.NONE);
  }

  private static StoredOffset at(long version) {
    return at(InVersion.start(version));
  }

  private static StoredOffset handingOver(long version, String handOver) {
    return new StoredOffset(
        InVersion.start(version),
        ID,
        HiddenColumns.NONE,
        SignalState.NONE,
        HandOver.parse(handOver));
  }

  private static TablePartition shard(int index, int count) {
    return new TablePartition(TABLE, new TableShard(index, count));
  }

  @Test
  void withoutOtherCountsAUnitStartsAsStored() {
    Map<TablePartition, StoredOffset> stored = Map.of(shard(0, 3), at(7));

    assertThat(ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(0, 3)), stored))
        .isEqualTo(new ShardHandOvers.Start(at(7), null, null));
    assertThat(ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(1, 3)), stored))
        .isEqualTo(new ShardHandOvers.Start(null, null, null));
  }

  @Test
  void aNewShardTakesOverFromTheWholeTableAtItsVersionStart() {
    Map<TablePartition, StoredOffset> stored =
        Map.of(new TablePartition(TABLE), at(new InVersion(7, 2, 5)));

    ShardHandOvers.Start start =
        ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(1, 3)), stored);

    assertThat(start.stored()).isNull();
    assertThat(start.planned()).isEqualTo(InVersion.start(7));
    assertThat(start.handOver()).isEqualTo(HandOver.parse("1:7.2.5"));
  }

  @Test
  void theWholeTableTakesOverFromShards() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(shard(0, 3), at(10));
    stored.put(shard(1, 3), at(new InVersion(12, 1, 3)));
    stored.put(shard(2, 3), at(11));
    stored.put(new TablePartition("s3a://bucket/items"), at(2));

    ShardHandOvers.Start start = ShardHandOvers.of(TaskUnit.table(TABLE), stored);

    assertThat(start.planned()).isEqualTo(InVersion.start(10));
    assertThat(start.handOver()).isEqualTo(HandOver.parse("3:10,12.1.3,11"));
  }

  @Test
  void aHandOverCarriedByAnOldShardComposes() {
    // 1 -> 3 -> 2: the whole table stood at 5; shard 1/3 was still taking over from it at 4.
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE), at(5));
    stored.put(shard(0, 3), at(6));
    stored.put(shard(1, 3), handingOver(4, "1:5"));
    stored.put(shard(2, 3), at(7));

    ShardHandOvers.Start start =
        ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(0, 2)), stored);

    assertThat(start.planned()).isEqualTo(InVersion.start(5));
    assertThat(start.handOver()).isEqualTo(HandOver.parse("1:5;3:6,4,7"));
  }

  @Test
  void aRestartMidHandOverGoesOnAndOnePastItIsPlain() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE), at(new InVersion(7, 2, 5)));
    stored.put(shard(0, 2), handingOver(7, "1:7.2.5"));
    stored.put(shard(1, 2), at(8));

    ShardHandOvers.Start midway =
        ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(0, 2)), stored);
    ShardHandOvers.Start past =
        ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(1, 2)), stored);

    assertThat(midway.stored()).isEqualTo(stored.get(shard(0, 2)));
    assertThat(midway.handOver()).isEqualTo(HandOver.parse("1:7.2.5"));
    assertThat(past).isEqualTo(new ShardHandOvers.Start(at(8), InVersion.start(8), null));
  }

  @Test
  void anOwnOffsetOlderThanAnotherCountsTakesOverFromIt() {
    // 1 -> 3 -> 1: the whole table's own offset is older than the shards' that took over.
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE), at(5));
    stored.put(shard(0, 3), at(8));
    stored.put(shard(1, 3), at(9));
    stored.put(shard(2, 3), at(10));

    ShardHandOvers.Start start = ShardHandOvers.of(TaskUnit.table(TABLE), stored);

    assertThat(start.stored()).isEqualTo(at(5));
    assertThat(start.handOver()).isEqualTo(HandOver.parse("3:8,9,10"));
  }

  @Test
  void anOffsetWrittenByHandIsTakenAsItIs() {
    StoredOffset byHand =
        new StoredOffset(InVersion.start(2), null, HiddenColumns.NONE, SignalState.NONE);
    Map<TablePartition, StoredOffset> stored =
        Map.of(new TablePartition(TABLE), byHand, shard(0, 2), at(9), shard(1, 2), at(9));

    assertThat(ShardHandOvers.of(TaskUnit.table(TABLE), stored))
        .isEqualTo(new ShardHandOvers.Start(byHand, null, null));
  }

  @Test
  void withoutAPositionForEveryKeyANewShardFails() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(shard(0, 3), at(7));
    stored.put(shard(2, 3), at(8));

    assertThatThrownBy(() -> ShardHandOvers.of(TaskUnit.table(TABLE), stored))
        .isInstanceOf(ConnectException.class)
        .hasMessageStartingWith("Table s3a://bucket/orders has no stored offset of its own")
        .hasMessageContaining("2 of 3 shards (table.shards=3)")
        .hasMessageContaining("table.shards was changed to 1")
        .hasMessageContaining("Set table.shards back to 3 ")
        .hasMessageContaining("DELETE /connectors/<name>/offsets");
  }

  @Test
  void aCompleteSlicedSnapshotTellsWhereTheShardsThatStoredNothingStand() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE, new SnapshotSlice(0, 2)), at(5));
    stored.put(new TablePartition(TABLE, new SnapshotSlice(1, 2)), at(5));
    stored.put(shard(0, 3), at(7));

    ShardHandOvers.Start start =
        ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(1, 2)), stored);

    assertThat(start.planned()).isEqualTo(InVersion.start(5));
    assertThat(start.handOver()).isEqualTo(HandOver.parse("3:7,-,-;1:5"));
  }

  /**
   * table.shards changed while a sliced snapshot was read (slices are not shards, and no shard
   * stored an offset): the new count's shards start after the snapshot, with nothing to hand over
   * and nothing failing, although the slices' offsets were inside the snapshot a moment before.
   */
  @Test
  void afterSlicesReadWhileTheCountChangedTheShardsStartPlainAfterTheSnapshot() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE, new SnapshotSlice(0, 2)), at(8));
    stored.put(new TablePartition(TABLE, new SnapshotSlice(1, 2)), at(8));

    for (int i = 0; i < 3; i++) {
      TaskUnit unit = TaskUnit.afterSlices(TABLE, 7, new TableShard(i, 3));
      assertThat(ShardHandOvers.of(unit, stored))
          .isEqualTo(new ShardHandOvers.Start(null, InVersion.start(8), null));
    }
  }

  @Test
  void anOldPartitionInsideItsSnapshotFailsUnlessTheUnitIsPastIt() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE), at(ChangePosition.InSnapshot.start(4)));

    assertThatThrownBy(() -> ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(1, 2)), stored))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("inside its snapshot of version 4")
        .hasMessageContaining("Set table.shards back to 1 until the snapshot is done");

    stored.put(shard(1, 2), at(5));
    assertThat(ShardHandOvers.of(TaskUnit.shard(TABLE, new TableShard(1, 2)), stored))
        .isEqualTo(new ShardHandOvers.Start(at(5), InVersion.start(5), null));
  }

  @Test
  void theTaskReadsEveryShardCountsOffsetsAndFailsAtStart() {
    StoredOffsets offsets =
        new StoredOffsets()
            .put(new TablePartition(TABLE, new TableShard(5, 16)).toMap(), Map.of("version", 3L));
    Map<String, String> connector =
        ConnectorConfig.forTables(TABLE).keyColumns("id").with("table.shards", "2").build();
    Map<String, String> task =
        TaskSettings.forUnits(connector, TableShards.units(TABLE, 2, null).subList(0, 1));
    DeltaCdfSourceConfig config = new DeltaCdfSourceConfig(task);

    assertThatThrownBy(
            () -> TaskStreams.of(config, "c", "1", new Redaction(config), offsets, Notifier.NONE))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("shard 0/2")
        .hasMessageContaining("1 of 16 shards (table.shards=16)");
  }
}
