package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's side of a parallel initial snapshot (snapshot.max.tasks > 1): decides, from the
 * stored offsets, what the tasks read of each table, and tells when every slice of a snapshot is
 * complete.
 *
 * <p>A table with a stored offset of its own is read whole, as always. A table without one whose
 * slices have stored offsets keeps the slice count and snapshot version those offsets name, so a
 * restarted connector (or a changed setting) never mixes slices of two cuts; once every slice
 * stored the position after the snapshot (version + 1), the table's changes are read by one task
 * from there. A table with neither is sliced when its configured start is a snapshot, at the
 * version that start resolves to now.
 *
 * <p>Offsets can be stored after a plan was made: a connector restarted before the first offset
 * flush plans anew at a newer version while its old tasks flush the old cut as they stop. So the
 * stored offsets, not the plan, decide: a slice task without an offset of its own starts at the
 * version its sibling slices stored ({@link #pinned}), and a snapshot is complete when every slice
 * stored the end of the version they pin.
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
    ChangePosition complete() {
      return ChangePosition.InVersion.start(version + 1);
    }
  }

  /**
   * What tasks read of one table.
   *
   * @param sliced the table's snapshot slices when they are still being read, else null
   */
  public record Plan(List<TaskUnit> units, Sliced sliced) {}

  private final DeltaCdfSourceConfig config;
  private final OffsetStorageReader offsets;
  private final Function<String, ChangePosition> configuredStart;

  /**
   * @param configuredStart where start.mode starts a table now (opens the table)
   */
  public SnapshotSlices(
      DeltaCdfSourceConfig config,
      OffsetStorageReader offsets,
      Function<String, ChangePosition> configuredStart) {
    this.config = config;
    this.offsets = offsets;
    this.configuredStart = configuredStart;
  }

  /** The slices of the configured tables, as {@code offsets} stores them. */
  public static SnapshotSlices of(DeltaCdfSourceConfig config, OffsetStorageReader offsets) {
    ConfiguredTables tables = new ConfiguredTables(config, new Redaction(config));
    return new SnapshotSlices(config, offsets, tables::start);
  }

  /** What tasks read of {@code table} when the connector has {@code maxTasks} tasks. */
  public Plan plan(String table, int maxTasks) {
    Plan whole = new Plan(List.of(TaskUnit.table(table)), null);
    if (offsets.offset(new TablePartition(table).toMap()) != null) {
      return whole;
    }
    Sliced stored = pinned(offsets, table);
    if (stored != null) {
      return complete(stored)
          ? new Plan(List.of(TaskUnit.afterSlices(table, stored.version())), null)
          : new Plan(stored.units(), stored);
    }
    int count = Math.min(config.snapshotMaxTasks(), maxTasks);
    if (count <= 1) {
      return whole;
    }
    ChangePosition start = configuredStart.apply(table);
    if (!(start instanceof ChangePosition.InSnapshot)) {
      return whole;
    }
    Sliced sliced = new Sliced(table, start.version(), count);
    return new Plan(sliced.units(), sliced);
  }

  /**
   * Whether every slice of {@code planned} has stored the position after the snapshot, of the
   * version the stored slice offsets pin when they pin one for as many slices.
   */
  public boolean complete(Sliced planned) {
    Sliced pinned = pinned(offsets, planned.table());
    Sliced sliced = pinned != null && pinned.count() == planned.count() ? pinned : planned;
    List<TablePartition> partitions = sliced.units().stream().map(TaskUnit::partition).toList();
    Map<TablePartition, StoredOffset> stored = StoredPositions.read(offsets, partitions);
    return partitions.stream()
        .allMatch(p -> stored.get(p) != null && sliced.complete().equals(stored.get(p).position()));
  }

  /**
   * The slices whose offsets are stored for {@code table}, with the count and version they pin;
   * null when no slice of any count has stored one.
   */
  static Sliced pinned(OffsetStorageReader offsets, String table) {
    List<Map<String, String>> partitions = new ArrayList<>();
    for (int count = 2; count <= DeltaCdfSourceConfig.SNAPSHOT_MAX_TASKS_LIMIT; count++) {
      new Sliced(table, 0, count).units().forEach(u -> partitions.add(u.partition().toMap()));
    }
    Map<Map<String, String>, Map<String, Object>> stored = offsets.offsets(partitions);
    TreeMap<Integer, Long> versionByCount = new TreeMap<>();
    for (Map.Entry<Map<String, String>, Map<String, Object>> entry : stored.entrySet()) {
      TablePartition partition = TablePartition.fromMap(entry.getKey());
      StoredOffset offset = StoredPositions.decode(partition, entry.getValue());
      if (offset == null) {
        continue;
      }
      ChangePosition position = offset.position();
      int count = partition.slice().count();
      long version =
          position instanceof ChangePosition.InSnapshot
              ? position.version()
              : position.version() - 1;
      Long other = versionByCount.put(count, version);
      if (other != null && other != version) {
        throw inconsistent(table, stored);
      }
    }
    if (versionByCount.size() > 1) {
      throw inconsistent(table, stored);
    }
    return versionByCount.isEmpty()
        ? null
        : new Sliced(table, versionByCount.firstEntry().getValue(), versionByCount.firstKey());
  }

  /**
   * {@code unit} itself, or, for a slice that has no offset of its own while its sibling slices
   * stored some, the same slice of the snapshot version they pin: the connector planned this slice
   * before the old tasks' offsets were flushed, and a snapshot must not mix two cuts.
   */
  static TaskUnit pinnedSlice(TaskUnit unit, OffsetStorageReader offsets) {
    SnapshotSlice slice = unit.partition().slice();
    if (slice == null) {
      return unit;
    }
    Sliced pinned = pinned(offsets, unit.table());
    if (pinned == null
        || pinned.count() != slice.count()
        || pinned.version() == unit.start().version()) {
      return unit;
    }
    log.info(
        "Slice {} of table {} was planned at version {}, but its sibling slices stored offsets"
            + " of the snapshot of version {}: it reads that snapshot",
        slice.label(),
        unit.table(),
        unit.start().version(),
        pinned.version());
    return TaskUnit.slice(unit.table(), pinned.version(), slice);
  }

  private static ConnectException inconsistent(
      String table, Map<Map<String, String>, Map<String, Object>> stored) {
    stored.values().removeIf(v -> v == null);
    return new ConnectException(
        "Table "
            + table
            + ": the stored offsets of its snapshot slices name different slice counts or"
            + " snapshot versions: "
            + stored
            + ". Reset them (and the table's own offset) through the REST API to start over");
  }
}
