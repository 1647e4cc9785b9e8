package io.deltacdf.connect.offset;

import io.deltacdf.connect.change.SnapshotSlice;
import java.util.Map;

/**
 * The Connect source partition of one table, {@code {"table": uri}} with its URI exactly as
 * configured; or of one slice of its parallel initial snapshot, {@code {"table": uri, "slice":
 * "index/count"}}, which stores that slice's position until the slice is complete.
 */
public record TablePartition(String table, SnapshotSlice slice) {

  static final String TABLE = "table";
  static final String SLICE = "slice";

  public TablePartition {
    if (slice != null && slice.whole()) {
      slice = null;
    }
  }

  /** The partition of a whole table. */
  public TablePartition(String table) {
    this(table, null);
  }

  public Map<String, String> toMap() {
    return slice == null ? Map.of(TABLE, table) : Map.of(TABLE, table, SLICE, slice.label());
  }

  /** Reads a partition map; malformed maps fail with a message saying what is expected. */
  public static TablePartition fromMap(Map<String, ?> map) {
    Object table = map == null ? null : map.get(TABLE);
    Object slice = map == null ? null : map.get(SLICE);
    if (!(table instanceof String name) || name.isBlank()
        || (slice != null && !(slice instanceof String))) {
      throw new IllegalArgumentException(
          "A source partition of this connector is {\"table\": \"<table URI as in"
              + " delta.table.paths>\"} (with \"slice\": \"<index>/<count>\" for a slice of a"
              + " parallel initial snapshot), not " + map);
    }
    return new TablePartition(name, slice == null ? null : SnapshotSlice.parse((String) slice));
  }
}
