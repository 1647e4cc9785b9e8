package io.deltacdf.connect.offset;

import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableShard;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The Connect source partition of one table, {@code {"table": uri}} with its URI exactly as
 * configured; of one slice of its parallel initial snapshot, {@code {"table": uri, "slice":
 * "index/count"}}, which stores that slice's position until the slice is complete; or of one shard
 * of its change stream (table.shards > 1), {@code {"table": uri, "shard": "index/count"}}.
 */
public record TablePartition(String table, SnapshotSlice slice, TableShard shard) {

  static final String TABLE = "table";
  static final String SLICE = "slice";
  static final String SHARD = "shard";

  public TablePartition {
    if (slice != null && slice.whole()) {
      slice = null;
    }
    if (shard != null && shard.whole()) {
      shard = null;
    }
    if (slice != null && shard != null) {
      throw new IllegalArgumentException(
          "A partition is a snapshot slice or a table shard, not both: " + slice + ", " + shard);
    }
  }

  /** The partition of a whole table. */
  public TablePartition(String table) {
    this(table, null, null);
  }

  /** The partition of a slice of the table's snapshot. */
  public TablePartition(String table, SnapshotSlice slice) {
    this(table, slice, null);
  }

  /** The partition of a shard of the table's changes. */
  public TablePartition(String table, TableShard shard) {
    this(table, null, shard);
  }

  /**
   * The partition as Connect stores it. Connect finds a stored offset by the exact JSON bytes of
   * its partition, so the keys must come out in the same order in every JVM: a HashMap of String
   * keys iterates in the same order everywhere, and it is what Connect itself decodes stored
   * partitions into (REST offsets listing and resets), whereas {@code Map.of}'s order changes from
   * JVM to JVM.
   */
  public Map<String, String> toMap() {
    if (slice == null && shard == null) {
      return Map.of(TABLE, table);
    }
    Map<String, String> map = new HashMap<>();
    map.put(TABLE, table);
    if (slice != null) {
      map.put(SLICE, slice.label());
    } else {
      map.put(SHARD, shard.label());
    }
    return Collections.unmodifiableMap(map);
  }

  /** How logs, messages and metrics name it: the table's URI, and its slice or shard. */
  public String describe() {
    if (slice != null) {
      return table + " (snapshot slice " + slice.label() + ")";
    }
    return shard == null ? table : table + " (shard " + shard.label() + ")";
  }

  /** Reads a partition map; malformed maps fail with a message saying what is expected. */
  public static TablePartition fromMap(Map<String, ?> map) {
    Object table = map == null ? null : map.get(TABLE);
    Object slice = map == null ? null : map.get(SLICE);
    Object shard = map == null ? null : map.get(SHARD);
    if (!(table instanceof String name)
        || name.isBlank()
        || (slice != null && !(slice instanceof String))
        || (shard != null && !(shard instanceof String))
        || (slice != null && shard != null)) {
      throw new IllegalArgumentException(
          "A source partition of this connector is {\"table\": \"<table URI as in"
              + " delta.table.paths>\"} (with \"slice\": \"<index>/<count>\" for a slice of a"
              + " parallel initial snapshot, or \"shard\": \"<index>/<count>\" for a shard of"
              + " table.shards), not "
              + map);
    }
    return new TablePartition(
        name,
        slice == null ? null : SnapshotSlice.parse((String) slice),
        shard == null ? null : TableShard.parse((String) shard));
  }
}
