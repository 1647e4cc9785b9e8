package io.deltacdf.connect.connector;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.ConfiguredTables;
import io.deltacdf.connect.task.Redaction;
import io.deltacdf.connect.task.SnapshotSlices;
import io.deltacdf.connect.task.SnapshotSlices.Pinned;
import io.deltacdf.connect.task.SnapshotSlices.Sliced;
import io.deltacdf.connect.task.TableShards;
import io.deltacdf.connect.task.TaskUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's side of a parallel initial snapshot (snapshot.max.tasks > 1): decides, from the
 * stored offsets, what the tasks read of each table, and tells when every slice of a snapshot is
 * complete.
 *
 * <p>A table's changes are read whole, or in table.shards shards by key. A table with a stored
 * offset of its changes (whole or of any shard) is read so, as always. A table without one whose
 * slices have stored offsets keeps the slice count and snapshot version those offsets fix ({@link
 * SnapshotSlices#pinned}), whatever snapshot.max.tasks and tasks.max say now, so a restarted
 * connector (or a changed setting) never mixes slices of two cuts; once every slice stored the
 * position after the snapshot (version + 1), the table's changes are read from there (by one task,
 * or one per shard). A table with neither is sliced when its configured start is a snapshot, at the
 * version that start resolves to now.
 *
 * <p>Offsets can be stored after a plan was made: a connector reconfigured before the first offset
 * flush plans anew (at a newer version, or in another number of slices) while its old tasks flush
 * the old cut as they stop. So the stored offsets, not the plan, decide: a slice task reads the cut
 * they fix (a slice of another count reads nothing, see {@link SnapshotSlices#sliceStart}), the
 * connector plans that cut again as soon as it sees it ({@link SliceFollower}), and a snapshot is
 * complete when every slice of that cut stored its end.
 */
public final class SlicePlanner {

  private static final Logger log = LoggerFactory.getLogger(SlicePlanner.class);

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
  public SlicePlanner(
      DeltaCdfSourceConfig config,
      OffsetStorageReader offsets,
      Function<String, ChangePosition> configuredStart) {
    this.config = config;
    this.offsets = offsets;
    this.configuredStart = configuredStart;
  }

  /** The slices of the configured tables, as {@code offsets} stores them. */
  public static SlicePlanner of(DeltaCdfSourceConfig config, OffsetStorageReader offsets) {
    ConfiguredTables tables = new ConfiguredTables(config, new Redaction(config));
    return new SlicePlanner(config, offsets, tables::start);
  }

  /** What tasks read of {@code table} when the connector has {@code maxTasks} tasks. */
  public Plan plan(String table, int maxTasks) {
    int shards = config.tableShards();
    Plan whole = new Plan(TableShards.units(table, shards, null), null);
    if (changesStored(table)) {
      return whole;
    }
    int count = Math.min(config.snapshotMaxTasks(), maxTasks);
    Pinned pinned = SnapshotSlices.pinned(offsets, table);
    if (pinned != null) {
      Sliced stored = pinned.sliced();
      if (pinned.complete()) {
        return new Plan(TableShards.units(table, shards, stored.version() + 1), null);
      }
      if (stored.count() != count) {
        log.info(
            "Table {}: its snapshot of version {} goes on in {} slices, as their stored offsets"
                + " fix it, although snapshot.max.tasks and tasks.max now make {}: a snapshot"
                + " keeps its slice count to its end, and the settings apply to the next one",
            table,
            stored.version(),
            stored.count(),
            Math.max(count, 1));
      }
      return new Plan(stored.units(), stored);
    }
    if (count <= 1) {
      return whole;
    }
    ChangePosition start = configuredStart.apply(table);
    if (start == null || !start.inSnapshot()) {
      return whole;
    }
    Sliced sliced = new Sliced(table, start.version(), count);
    return new Plan(sliced.units(), sliced);
  }

  /**
   * Whether the table's changes stored an offset: of the whole table, or of a shard of any count.
   */
  private boolean changesStored(String table) {
    List<Map<String, String>> partitions =
        TableShards.partitions(table).stream().map(TablePartition::toMap).toList();
    return offsets.offsets(partitions).values().stream().anyMatch(Objects::nonNull);
  }

  /** Where the snapshot that {@code planned} reads stands, as the stored offsets tell. */
  public enum Progress {
    /** No slice stored an offset yet, or the stored ones fix {@code planned}: being read. */
    READING,
    /** Every slice of the cut the stored offsets fix stored the snapshot's end. */
    COMPLETE,
    /** The stored offsets fix another cut than {@code planned}: it must be planned again. */
    OTHER_CUT
  }

  /** Where the snapshot {@code planned} reads stands. */
  public Progress progress(Sliced planned) {
    Pinned pinned = SnapshotSlices.pinned(offsets, planned.table());
    if (pinned == null) {
      return Progress.READING;
    }
    if (pinned.complete()) {
      return Progress.COMPLETE;
    }
    return pinned.sliced().equals(planned) ? Progress.READING : Progress.OTHER_CUT;
  }
}
