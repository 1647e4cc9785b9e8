package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.offset.TablePartition;

/**
 * What one task reads of one table: the whole table or one shard of it (from its stored offset,
 * else from {@code start}, else from start.mode), or one slice of its initial snapshot (from the
 * slice's stored offset, else from the snapshot's start). The connector hands units to tasks as
 * settings, which {@link TaskSettings} writes and reads.
 *
 * @param start where the unit starts when its partition has no stored offset; null: start.mode
 */
public record TaskUnit(TablePartition partition, ChangePosition start) {

  public TaskUnit {
    if (partition.slice() != null && (start == null || !start.inSnapshot())) {
      throw new IllegalArgumentException("A snapshot slice starts in its snapshot, not " + start);
    }
  }

  /** A whole table, from its stored offset or start.mode. */
  public static TaskUnit table(String table) {
    return new TaskUnit(new TablePartition(table), null);
  }

  /** A shard of a table (the whole table for 0/1), from its stored offset or start.mode. */
  public static TaskUnit shard(String table, TableShard shard) {
    return new TaskUnit(new TablePartition(table, shard), null);
  }

  /** A whole table whose snapshot was read in slices: its changes from version + 1 on. */
  public static TaskUnit afterSlices(String table, long snapshotVersion) {
    return afterSlices(table, snapshotVersion, TableShard.WHOLE);
  }

  /** A shard of a table whose snapshot was read in slices: its changes from version + 1 on. */
  public static TaskUnit afterSlices(String table, long snapshotVersion, TableShard shard) {
    return new TaskUnit(
        new TablePartition(table, shard), ChangePosition.InVersion.start(snapshotVersion + 1));
  }

  /** One slice of the snapshot of {@code version}. */
  public static TaskUnit slice(String table, long version, SnapshotSlice slice) {
    return new TaskUnit(new TablePartition(table, slice), ChangePosition.InSnapshot.start(version));
  }

  public String table() {
    return partition.table();
  }

  /** The shard this unit reads; the whole table when it is not sharded. */
  public TableShard shard() {
    return partition.shard() == null ? TableShard.WHOLE : partition.shard();
  }

  /** The slice this unit reads; the whole snapshot for a table. */
  public SnapshotSlice slice() {
    return partition.slice() == null ? SnapshotSlice.WHOLE : partition.slice();
  }
}
