package io.deltacdf.connect.convert;

/** A configured key column that the table dropped: rows from then on have no key. */
public final class KeyColumnDroppedException extends IllegalArgumentException {
  KeyColumnDroppedException(String table, String column, long version) {
    super(
        "Key column '"
            + column
            + "' of table "
            + table
            + " was dropped at version "
            + version
            + ", so rows from version "
            + version
            + " on have no key. Change key.columns (or key.columns.by.table) to columns the table"
            + " still has, then reset the connector's offsets to start over from a snapshot keyed"
            + " the new way (DELETE /connectors/<name>/offsets), or move them to where the new keys"
            + " should start (PATCH /connectors/<name>/offsets)");
  }
}
