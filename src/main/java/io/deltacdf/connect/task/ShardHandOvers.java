package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.HandOver.Cut;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a table or shard takes over from the offsets its table's changes stored under other shard
 * counts (the whole table counting as one shard), left by a changed table.shards: exactly, at a
 * version boundary ({@link HandOver}). Those offsets stay stored; each is a lower bound of how far
 * its keys' changes were sent, so they are read again on every start and a partition goes on
 * exactly also when it finds its own offset older than theirs (a count changed back).
 *
 * <p>Not handed over, and failing the task with what to do: a partition of another count inside a
 * snapshot (its keys' snapshot rows are half sent, which no change position describes) unless this
 * partition's own position is past that snapshot; and a new partition when no other count has a
 * position for every one of its shards.
 */
final class ShardHandOvers {

  private static final Logger log = LoggerFactory.getLogger(ShardHandOvers.class);

  private ShardHandOvers() {}

  /**
   * Where {@code unit} starts: its own stored offset (else its planned start, else start.mode), or
   * the start a hand-over gives it, with the hand-over its feed obeys (null: none).
   */
  record Start(StoredOffset stored, ChangePosition planned, HandOver handOver) {}

  /**
   * Where the table or shard {@code unit} starts, from what Connect stored for it and for the
   * table's other partitions.
   *
   * @param stored the decoded stored offsets, including every change partition of the table ({@link
   *     TableShards#partitions}) and every slice partition ({@link SnapshotSlices#slicePartitions})
   */
  static Start of(TaskUnit unit, Map<TablePartition, StoredOffset> stored) {
    StoredOffset own = stored.get(unit.partition());
    Start plain = new Start(own, unit.start(), null);
    // An offset the connector did not write (altered by hand, without the table's id) is taken as
    // it is: the user moved the table there.
    if (own != null && (own.identity() == null || own.position().inSnapshot())) {
      return plain;
    }
    Others others = others(unit, stored);
    List<Cut> cuts = new ArrayList<>(others.cuts());
    if (own != null && own.handOver() != null) {
      cuts.addAll(own.handOver().cuts());
    }
    if (cuts.isEmpty() && others.inSnapshot().isEmpty()) {
      return plain;
    }
    // Where nothing was stored yet, a key's changes were sent up to the planned start (the end of
    // the table's sliced snapshot) at least.
    SnapshotSlices.Pinned slices = SnapshotSlices.pinned(unit.table(), stored);
    if (slices != null && slices.complete()) {
      cuts.add(Cut.whole(slices.sliced().complete()));
    }
    if (unit.start() instanceof InVersion planned) {
      cuts.add(Cut.whole(planned));
    }
    HandOver handOver = cuts.isEmpty() ? null : new HandOver(cuts);
    InVersion from =
        own != null ? (InVersion) own.position() : handOver == null ? null : handOver.start();
    others.requirePastSnapshots(unit, from);
    if (from == null) {
      throw incomplete(unit, others);
    }
    if (handOver == null || HandOver.ORDER.compare(from, handOver.end()) >= 0) {
      return new Start(own, from, null);
    }
    log.info(
        "Table {} takes over from the offsets of other shard counts ({}): it reads from {} and"
            + " sends each key's changes from where its old partition stood, until {}",
        unit.partition().describe(),
        handOver.toText(),
        from,
        handOver.end());
    return new Start(own, from, handOver);
  }

  /**
   * What the table's partitions of other shard counts stored: per count, a cut of their positions
   * in versions, and the hand-overs they carry; and the partitions inside a snapshot.
   */
  private record Others(
      List<Cut> cuts,
      SortedMap<Integer, Integer> storedCounts,
      Map<TablePartition, Long> inSnapshot) {

    /**
     * Fails unless every partition of another count inside a snapshot is before {@code from} (null:
     * no start is known).
     */
    void requirePastSnapshots(TaskUnit unit, InVersion from) {
      for (Map.Entry<TablePartition, Long> snapshot : inSnapshot.entrySet()) {
        long version = snapshot.getValue();
        if (from == null || HandOver.ORDER.compare(from, InVersion.start(version + 1)) < 0) {
          int count = snapshot.getKey().shard() == null ? 1 : snapshot.getKey().shard().count();
          throw new ConnectException(
              "Table "
                  + unit.partition().describe()
                  + " cannot take over from "
                  + snapshot.getKey().describe()
                  + ": table.shards was changed to "
                  + unit.shard().count()
                  + " while that partition was inside its snapshot of version "
                  + version
                  + ", whose rows no change position divides by key. Set table.shards back to "
                  + count
                  + " until the snapshot is done (that partition's offset then shows version "
                  + (version + 1)
                  + " or later), then change it; or, to stream the table anew from start.mode,"
                  + " stop the connector and DELETE its offsets (DELETE"
                  + " /connectors/<name>/offsets)");
        }
      }
    }
  }

  private static Others others(TaskUnit unit, Map<TablePartition, StoredOffset> stored) {
    Map<Integer, InVersion[]> byCount = new TreeMap<>();
    SortedMap<Integer, Integer> storedCounts = new TreeMap<>();
    Map<TablePartition, Long> inSnapshot = new HashMap<>();
    List<Cut> carried = new ArrayList<>();
    for (Map.Entry<TablePartition, StoredOffset> entry : stored.entrySet()) {
      TablePartition partition = entry.getKey();
      int count = partition.shard() == null ? 1 : partition.shard().count();
      if (!partition.table().equals(unit.table())
          || partition.slice() != null
          || count == unit.shard().count()) {
        continue;
      }
      storedCounts.merge(count, 1, Integer::sum);
      StoredOffset offset = entry.getValue();
      if (offset.position() instanceof InVersion position) {
        int index = partition.shard() == null ? 0 : partition.shard().index();
        byCount.computeIfAbsent(count, c -> new InVersion[c])[index] = position;
      } else {
        inSnapshot.put(partition, offset.position().version());
      }
      if (offset.handOver() != null) {
        carried.addAll(offset.handOver().cuts());
      }
    }
    List<Cut> cuts = new ArrayList<>();
    byCount.forEach((count, positions) -> cuts.add(new Cut(count, Arrays.asList(positions))));
    cuts.addAll(carried);
    return new Others(cuts, storedCounts, inSnapshot);
  }

  private static ConnectException incomplete(TaskUnit unit, Others others) {
    StringBuilder found = new StringBuilder();
    others
        .storedCounts()
        .forEach(
            (count, shards) ->
                found
                    .append(found.isEmpty() ? "" : ", and ")
                    .append(
                        count == 1
                            ? "the whole table's (table.shards=1)"
                            : shards + " of " + count + " shards (table.shards=" + count + ")"));
    return new ConnectException(
        "Table "
            + unit.partition().describe()
            + " has no stored offset of its own, and the table's changes stored offsets under"
            + " other shard counts for only some of their shards: "
            + found
            + ". table.shards was changed to "
            + unit.shard().count()
            + ", and no count tells where every key's changes stood, so the new shards cannot take"
            + " over exactly. Set table.shards back to "
            + (others.storedCounts().size() == 1
                ? others.storedCounts().firstKey()
                : "the count it ran with last, one of " + others.storedCounts().keySet())
            + " until each of its shards has stored an offset (each stores one once a task reads"
            + " it), then change it; or, to stream the table anew"
            + " from start.mode, stop the connector and DELETE its offsets (DELETE"
            + " /connectors/<name>/offsets)");
  }
}
