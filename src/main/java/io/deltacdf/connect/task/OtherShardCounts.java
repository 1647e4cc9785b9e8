package io.deltacdf.connect.task;

import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The offsets a table's changes stored under another shard count than the one a unit reads (the
 * whole table counting as one shard): left by a table.shards that was changed. A unit without an
 * offset of its own must not start by start.mode then, or its keys' changes would be sent again or
 * lost.
 */
final class OtherShardCounts {

  private OtherShardCounts() {}

  /**
   * Fails when {@code unit}, a table or shard without a stored offset of its own, belongs to a
   * table whose changes stored offsets under another shard count.
   *
   * @param stored the decoded stored offsets, including every change partition of the table ({@link
   *     TableShards#partitions})
   */
  static void requireNone(TaskUnit unit, Map<TablePartition, StoredOffset> stored) {
    SortedMap<Integer, Integer> others = storedCounts(unit, stored);
    if (others.isEmpty()) {
      return;
    }
    StringBuilder found = new StringBuilder();
    others.forEach(
        (count, shards) ->
            found
                .append(found.isEmpty() ? "" : ", and ")
                .append(
                    count == 1
                        ? "the whole table's (table.shards=1)"
                        : shards + " of " + count + " shards (table.shards=" + count + ")"));
    throw new ConnectException(
        "Table "
            + unit.partition().describe()
            + " has no stored offset of its own, but the table's changes stored offsets under"
            + " another shard count: "
            + found
            + ". table.shards was changed to "
            + unit.shard().count()
            + ", and the new count cannot take over from those positions: starting by start.mode"
            + " would send changes again or lose them. Set table.shards back to "
            + (others.size() == 1
                ? others.firstKey()
                : "the count it ran with last, one of " + others.keySet())
            + " to go on from where the table was; or, to stream the table anew from start.mode,"
            + " stop the connector and DELETE its offsets (DELETE /connectors/<name>/offsets)");
  }

  /** Per other shard count with stored offsets of the unit's table, how many shards stored one. */
  private static SortedMap<Integer, Integer> storedCounts(
      TaskUnit unit, Map<TablePartition, StoredOffset> stored) {
    SortedMap<Integer, Integer> counts = new TreeMap<>();
    for (TablePartition partition : stored.keySet()) {
      if (partition.table().equals(unit.table()) && partition.slice() == null) {
        int count = partition.shard() == null ? 1 : partition.shard().count();
        if (count != unit.shard().count()) {
          counts.merge(count, 1, Integer::sum);
        }
      }
    }
    return counts;
  }
}
