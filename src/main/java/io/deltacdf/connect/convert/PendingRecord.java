package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import java.util.List;
import org.apache.kafka.connect.data.Schema;

/** A record about to be made: its offset is decided once a row's records are all known. */
record PendingRecord(Object key, Schema valueSchema, Object value, ChangeRow change) {

  /**
   * Adds a null-value record with the delete's key, so compacted topics and sinks drop the key,
   * when tombstones.on.delete asks for one and the table has a key.
   */
  static void addTombstone(
      RecordSettings settings, Object key, ChangeRow delete, List<PendingRecord> out) {
    if (settings.tombstonesOnDelete() && key != null) {
      out.add(new PendingRecord(key, null, null, delete));
    }
  }
}
