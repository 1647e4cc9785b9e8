package io.deltacdf.connect.offset;

import io.deltacdf.connect.change.SnapshotSlice;
import java.util.Collections;
import java.util.HashMap;
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

  /**
   * The partition as Connect stores it. Connect finds a stored offset by the exact JSON bytes of
   * its partition, so the keys must come out in the same order in every JVM: a HashMap of String
   * keys iterates in the same order everywhere, and it is what Connect itself decodes stored
   * partitions into (REST offsets listing and resets), whereas {@code Map.of}'s order changes from
   * JVM to JVM.
   */
  public Map<String, String> toMap() {
    if (slice == null) {
      return Map.of(TABLE, table);
    }
    Map<String, String> map = new HashMap<>();
    map.put(TABLE, table);
    map.put(SLICE, slice.label());
    return Collections.unmodifiableMap(map);
  }

  /** How logs, messages and metrics name it: the table's URI, and the slice when it is one. */
  public String describe() {
    return slice == null ? table : table + " (snapshot slice " + slice.label() + ")";
  }

  /** Reads a partition map; malformed maps fail with a message saying what is expected. */
  public static TablePartition fromMap(Map<String, ?> map) {
    Object table = map == null ? null : map.get(TABLE);
    Object slice = map == null ? null : map.get(SLICE);
    if (!(table instanceof String name)
        || name.isBlank()
        || (slice != null && !(slice instanceof String))) {
      throw new IllegalArgumentException(
          "A source partition of this connector is {\"table\": \"<table URI as in"
              + " delta.table.paths>\"} (with \"slice\": \"<index>/<count>\" for a slice of a"
              + " parallel initial snapshot), not "
              + map);
    }
    return new TablePartition(name, slice == null ? null : SnapshotSlice.parse((String) slice));
  }
}
