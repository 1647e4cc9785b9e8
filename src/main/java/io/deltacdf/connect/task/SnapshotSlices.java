package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cut of a table's parallel initial snapshot (snapshot.max.tasks > 1) that its stored slice
 * offsets fix ({@link #pinned}), which both sides obey: the connector plans that cut, whatever
 * snapshot.max.tasks and tasks.max say now, so that a restarted connector (or a changed setting)
 * never mixes slices of two cuts; and a slice task starts in it ({@link #sliceStart}), since
 * offsets can be stored after a plan was made: a connector reconfigured before the first offset
 * flush plans anew while its old tasks flush the old cut as they stop. A snapshot is complete when
 * every slice of that cut stored its end, the position after the snapshot (version + 1).
 */
public final class SnapshotSlices {

  private static final Logger log = LoggerFactory.getLogger(SnapshotSlices.class);

  /**
   * The slices of one table's snapshot: {@code count} slices of the snapshot of {@code version}.
   */
  public record Sliced(String table, long version, int count) {

    public List<TaskUnit> units() {
      List<TaskUnit> units = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        units.add(TaskUnit.slice(table, version, new SnapshotSlice(i, count)));
      }
      return units;
    }

    /** The position every slice stores once it is complete. */
    ChangePosition.InVersion complete() {
      return ChangePosition.InVersion.start(version + 1);
    }
  }

  /**
   * The cut of a table's snapshot its stored slice offsets fix, and whether every slice of it
   * stored the snapshot's end.
   */
  public record Pinned(Sliced sliced, boolean complete) {}

  /**
   * The cut the stored slice offsets of {@code table} fix; null when no slice of any count has
   * stored one. Offsets of several cuts are stored when tasks of an old and a new plan overlapped
   * (a changed slice count, or a newer snapshot version planned before the old tasks' offsets were
   * flushed). One of them is chosen so that the snapshot always ends, and ends right: the oldest
   * snapshot version, as the changes after it bring every row read of a newer one up to date; of
   * its cuts, one whose slices are all complete, else the one with the most slices.
   */
  public static Pinned pinned(OffsetStorageReader offsets, String table) {
    return pinned(table, StoredPositions.read(offsets, slicePartitions(table)));
  }

  /** {@link #pinned(OffsetStorageReader, String)} from offsets already read and decoded. */
  static Pinned pinned(String table, Map<TablePartition, StoredOffset> stored) {
    Map<Sliced, Integer> completeSlices = new HashMap<>();
    for (Map.Entry<TablePartition, StoredOffset> entry : stored.entrySet()) {
      TablePartition partition = entry.getKey();
      if (partition.slice() != null && partition.table().equals(table)) {
        ChangePosition position = entry.getValue().position();
        Sliced cut = new Sliced(table, snapshotVersion(position), partition.slice().count());
        completeSlices.merge(cut, cut.complete().equals(position) ? 1 : 0, Integer::sum);
      }
    }
    return completeSlices.keySet().stream()
        .min(
            Comparator.comparingLong(Sliced::version)
                .thenComparing(cut -> completeSlices.get(cut) < cut.count())
                .thenComparing(Comparator.comparingInt(Sliced::count).reversed()))
        .map(cut -> new Pinned(cut, completeSlices.get(cut) == cut.count()))
        .orElse(null);
  }

  /** Every partition a slice of {@code table} can have stored an offset under, of any count. */
  static List<TablePartition> slicePartitions(String table) {
    List<TablePartition> partitions = new ArrayList<>();
    for (int count = 2; count <= DeltaCdfSourceConfig.SNAPSHOT_MAX_TASKS_LIMIT; count++) {
      new Sliced(table, 0, count).units().forEach(u -> partitions.add(u.partition()));
    }
    return partitions;
  }

  /** The version of the snapshot a slice's stored position is in, or just after. */
  private static long snapshotVersion(ChangePosition position) {
    return position.inSnapshot() ? position.version() : position.version() - 1;
  }

  /**
   * Where a slice task starts {@code unit}, from what Connect stored for it: as planned when the
   * stored slice offsets fix no other cut; else in the snapshot version they fix, from the start
   * when its own offset is of another version; and not at all (null) when they fix another slice
   * count: the connector plans that count within its SliceFollower's check interval and hands out
   * new units.
   *
   * @param storedOffsets the decoded stored offsets of every slice partition of the table ({@link
   *     #slicePartitions})
   */
  static SliceStart sliceStart(TaskUnit unit, Map<TablePartition, StoredOffset> storedOffsets) {
    SnapshotSlice slice = unit.partition().slice();
    StoredOffset stored = storedOffsets.get(unit.partition());
    Pinned pinned = pinned(unit.table(), storedOffsets);
    if (pinned == null) {
      return new SliceStart(unit, stored);
    }
    Sliced cut = pinned.sliced();
    if (cut.count() != slice.count()) {
      log.info(
          "Slice {} of table {} is not read: the stored offsets fix its snapshot of version {} in"
              + " {} slices, which the connector plans again instead",
          slice.label(),
          unit.table(),
          cut.version(),
          cut.count());
      return null;
    }
    if (stored != null && snapshotVersion(stored.position()) == cut.version()) {
      return new SliceStart(unit, stored);
    }
    if (stored != null || cut.version() != unit.start().version()) {
      log.info(
          "Slice {} of table {} was planned at version {}{}, but the stored offsets of its"
              + " sibling slices fix the snapshot of version {}: it reads that snapshot from its"
              + " start",
          slice.label(),
          unit.table(),
          unit.start().version(),
          stored == null ? "" : " and stored " + stored.position(),
          cut.version());
    }
    return new SliceStart(TaskUnit.slice(unit.table(), cut.version(), slice), null);
  }

  /** Where a slice task starts: its unit, and the offset it resumes from (null: the start). */
  record SliceStart(TaskUnit unit, StoredOffset stored) {}
}
