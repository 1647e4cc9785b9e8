package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.offset.OffsetCodec;
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
  static Map<TablePartition, ChangePosition> read(
      OffsetStorageReader offsets, Collection<TablePartition> partitions) {
    List<Map<String, String>> keys = partitions.stream().map(TablePartition::toMap).toList();
    Map<Map<String, String>, Map<String, Object>> stored = offsets.offsets(keys);
    Map<TablePartition, ChangePosition> positions = new HashMap<>();
    for (TablePartition partition : partitions) {
      ChangePosition position = decode(partition, stored.get(partition.toMap()));
      if (position != null) {
        positions.put(partition, position);
      }
    }
    return positions;
  }

  /** The position {@code offset} names, null when there is no offset. */
  static ChangePosition decode(TablePartition partition, Map<String, ?> offset) {
    if (offset == null) {
      return null;
    }
    try {
      return OffsetCodec.fromMap(offset);
    } catch (IllegalArgumentException e) {
      throw new ConnectException("Table " + partition.describe() + ": " + e.getMessage(), e);
    }
  }
}
