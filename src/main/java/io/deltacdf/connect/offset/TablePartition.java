package io.deltacdf.connect.offset;

import java.util.Map;

/** The Connect source partition of one table: its URI exactly as configured. */
public record TablePartition(String table) {

  static final String TABLE = "table";

  public Map<String, String> toMap() {
    return Map.of(TABLE, table);
  }

  /** Reads a partition map; malformed maps fail with a message saying what is expected. */
  public static TablePartition fromMap(Map<String, ?> map) {
    Object table = map == null ? null : map.get(TABLE);
    if (!(table instanceof String name) || name.isBlank()) {
      throw new IllegalArgumentException(
          "A source partition of this connector is {\"table\": \"<table URI as in"
              + " delta.table.paths>\"}, not " + map);
    }
    return new TablePartition(name);
  }
}
