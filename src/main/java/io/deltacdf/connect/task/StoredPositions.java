package io.deltacdf.connect.task;

import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * The positions Connect stored, decoded: an offset altered through the REST API may be malformed,
 * and then fails naming the table (or slice) it was stored for.
 */
final class StoredPositions {

  private StoredPositions() {}

  /**
   * The positions stored for those of {@code partitions} that have one. Every one is decoded here,
   * so a malformed one fails before anything else happens.
   */
  static Map<TablePartition, StoredOffset> read(
      OffsetStorageReader offsets, Collection<TablePartition> partitions) {
    List<Map<String, String>> keys = partitions.stream().map(TablePartition::toMap).toList();
    Map<Map<String, String>, Map<String, Object>> stored = offsets.offsets(keys);
    Map<TablePartition, StoredOffset> decoded = new HashMap<>();
    for (TablePartition partition : partitions) {
      StoredOffset offset = decode(partition, stored.get(partition.toMap()));
      if (offset != null) {
        decoded.put(partition, offset);
      }
    }
    return decoded;
  }

  /** The position {@code offset} names and its table, null when there is no offset. */
  static StoredOffset decode(TablePartition partition, Map<String, ?> offset) {
    if (offset == null) {
      return null;
    }
    try {
      return OffsetCodec.decode(offset);
    } catch (IllegalArgumentException e) {
      throw new ConnectException("Table " + partition.describe() + ": " + e.getMessage(), e);
    }
  }
}
