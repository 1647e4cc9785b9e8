package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.offset.TablePartition;
import java.util.HashMap;
import java.util.Map;

/**
 * What one task reads of one table: the whole table (from its stored offset, else from {@code
 * start}, else from start.mode), or one slice of its initial snapshot (from the slice's stored
 * offset, else from the snapshot's start). The connector hands units to tasks as settings (see
 * {@link TaskConfigs}), each written by {@link #toMap}.
 *
 * @param start where the unit starts when its partition has no stored offset; null: start.mode
 */
public record TaskUnit(TablePartition partition, ChangePosition start) {

  /** The version of the snapshot a slice reads. */
  static final String SNAPSHOT_VERSION = "snapshot.version";

  /** The first version whose changes a table reads, when its snapshot was read in slices. */
  static final String START_VERSION = "start.version";

  public TaskUnit {
    if (partition.slice() != null && (start == null || !start.inSnapshot())) {
      throw new IllegalArgumentException("A snapshot slice starts in its snapshot, not " + start);
    }
  }

  /** A whole table, from its stored offset or start.mode. */
  public static TaskUnit table(String table) {
    return new TaskUnit(new TablePartition(table), null);
  }

  /** A whole table whose snapshot was read in slices: its changes from version + 1 on. */
  public static TaskUnit afterSlices(String table, long snapshotVersion) {
    return new TaskUnit(
        new TablePartition(table), ChangePosition.InVersion.start(snapshotVersion + 1));
  }

  /** One slice of the snapshot of {@code version}. */
  public static TaskUnit slice(String table, long version, SnapshotSlice slice) {
    return new TaskUnit(new TablePartition(table, slice), ChangePosition.InSnapshot.start(version));
  }

  public String table() {
    return partition.table();
  }

  /** The slice this unit reads; the whole snapshot for a table. */
  public SnapshotSlice slice() {
    return partition.slice() == null ? SnapshotSlice.WHOLE : partition.slice();
  }

  /**
   * The unit as settings: its partition's "table" (and "slice"), with "snapshot.version" for a
   * slice or "start.version" for a table that starts after its snapshot's slices.
   */
  public Map<String, String> toMap() {
    Map<String, String> map = new HashMap<>(partition.toMap());
    if (start != null && start.inSnapshot()) {
      map.put(SNAPSHOT_VERSION, Long.toString(start.version()));
    } else if (start != null) {
      map.put(START_VERSION, Long.toString(start.version()));
    }
    return map;
  }

  /** Reads {@link #toMap}. */
  public static TaskUnit fromMap(Map<String, String> map) {
    TablePartition partition = TablePartition.fromMap(map);
    if (partition.slice() != null) {
      return new TaskUnit(
          partition, ChangePosition.InSnapshot.start(version(map, SNAPSHOT_VERSION)));
    }
    return map.containsKey(START_VERSION)
        ? new TaskUnit(partition, ChangePosition.InVersion.start(version(map, START_VERSION)))
        : new TaskUnit(partition, null);
  }

  private static long version(Map<String, String> map, String key) {
    String value = map.get(key);
    if (value == null) {
      throw new IllegalArgumentException("The task unit " + map + " has no " + key);
    }
    return Long.parseLong(value);
  }
}
