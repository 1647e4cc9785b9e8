package io.deltacdf.connect.delta;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FeedProgress;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.VersionSourceCounts;
import io.deltacdf.connect.delta.derived.RowDiff;
import io.deltacdf.connect.delta.feed.FeedStep;
import io.deltacdf.connect.delta.feed.Phase;
import io.deltacdf.connect.delta.feed.SnapshotPhase;
import io.deltacdf.connect.delta.feed.VersionPhase;
import io.deltacdf.connect.delta.log.DeltaLog;
import io.deltacdf.connect.delta.read.FileRowCursor;
import io.deltacdf.connect.delta.read.OpenedFile;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.table.FeedContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a table's change feed from a position on, in bounded batches, and keeps tailing the log for
 * new commits.
 *
 * <p><b>Order.</b> An initial snapshot (if the position is inside one) comes first: its data files
 * in path order, each file's rows in physical order. Then versions in ascending order; inside a
 * version, its change files in the order their actions appear in the commit file (cdc files when
 * the version has any, else added and removed data files by first appearance of their path), and
 * each file's rows in physical order. Every row carries the position just after it, so resuming
 * from a row's position yields exactly the rows an uninterrupted read would have yielded next.
 *
 * <p><b>Derived changes.</b> A version read without its change data feed ({@link ChangeRules})
 * yields the rows of its added and removed data files in the same order; when it both removes and
 * adds rows, a {@link DerivedVersion} diffs them first and keeps only the rows that changed, which
 * leaves positions (file index, physical row) meaning the same.
 *
 * <p><b>Memory.</b> At most one Parquet batch per open file, the file list of one commit, and one
 * window of snapshot files are held at once; a version or snapshot of any size streams through. A
 * derived version that rewrites rows also holds its {@link RowDiff}: 16 to 24 bytes per rewritten
 * row while its first pass runs, then 24 to 32 bytes per changed row, up to a bounded number of
 * rows; larger diffs spill to local temp files, deleted when the feed leaves the version or closes.
 *
 * <p><b>Slices.</b> A feed of one slice of the snapshot (see {@link SnapshotSlice}) reads only that
 * slice's files and ends with the snapshot: at version + 1 it has caught up for good, as the
 * versions after the snapshot are read by another feed once every slice is complete.
 *
 * <p><b>Shards.</b> A feed of one shard of the table ({@link ChangeRules#shard}) reads the key
 * columns of every row first and then decodes and returns the rows of its keys only; the others are
 * passed over as rows that are no changes are, and its position moves past them all the same
 * ({@link FileRowCursor#keepOnly}).
 *
 * <p><b>Bounded.</b> A feed given a last version (a bounded run's end) reads no version after it:
 * past it, it has caught up for good ({@link #ended}), whatever later commits hold.
 *
 * <p><b>Phases.</b> A {@link SnapshotPhase} knows the snapshot's files and a {@link VersionPhase}
 * the versions' plans, both behind {@link Phase}; the phase that opened the file being read says
 * where its rows and its end leave the feed. This class owns the position, the open file and where
 * versions end.
 *
 * <p>Not thread-safe: one feed is read by one thread.
 */
public final class DeltaChangeFeed implements AutoCloseable {

  /**
   * How long one call may pass over versions without rows before it returns, so that a caller (a
   * task's poll, and so a graceful stop) is never held for long by a long run of them.
   */
  static final long SKIP_BUDGET_NANOS = 1_000_000_000L;

  private final FeedContext context;
  private final DeltaLog log;
  private final ChangeRules rules;

  /** The initial snapshot, when the feed starts inside one. */
  private final SnapshotPhase snapshot;

  /** Whether the feed ends with its snapshot (a slice of it). */
  private final boolean snapshotOnly;

  /** The versions, from the first time the position is in one. */
  private VersionPhase versions;

  private ChangePosition position;
  private OpenedFile file;

  /** The phase that opened {@link #file}. */
  private Phase<?> reading;

  private String tableId;

  /** The commitInfo operation of the version whose rows were returned last. */
  private String operation;

  /** The version (or snapshot) whose rows were returned and whose end is not yet reported. */
  private Segment openSegment;

  private long bytesRead;

  /** The last version read: a bounded run's end, else {@link Long#MAX_VALUE}. */
  private final long lastVersion;

  /**
   * A feed from {@code start} on, of {@code slice} of the snapshot when {@code start} is in one;
   * reads nothing before the first call of {@link #next}.
   */
  DeltaChangeFeed(
      FeedContext context,
      ChangePosition start,
      SnapshotSlice slice,
      int snapshotWindowSize,
      ChangeRules rules,
      long lastVersion) {
    this.context = context;
    this.lastVersion = lastVersion;
    this.log = new DeltaLog(context);
    this.rules = rules;
    this.position = start;
    this.snapshot =
        start.inSnapshot()
            ? new SnapshotPhase(context, log, rules, start.version(), snapshotWindowSize, slice)
            : null;
    this.snapshotOnly = !slice.whole();
    // A feed resumed inside a version reports that version's end, even if no row is left in it.
    this.openSegment = atSegmentStart(start) ? null : segmentOf(start);
  }

  /** How far the feed has come. */
  public FeedProgress progress() {
    long latestKnownVersion =
        Math.max(
            snapshot == null ? -1 : snapshot.loadedVersion(),
            versions == null ? -1 : versions.latestListed());
    long total = snapshot == null ? 0 : snapshot.filesTotal();
    long done = position.inSnapshot() ? snapshot.filesDone() : total;
    return new FeedProgress(
        latestKnownVersion,
        done,
        total,
        bytesRead,
        versions == null ? VersionSourceCounts.NONE : versions.sourceCounts());
  }

  /** Where reading continues: every row before it has been returned. */
  public ChangePosition position() {
    return position;
  }

  /**
   * Whether the feed has read every version up to its last one (a bounded run's end) and reads no
   * more: {@link #next} returns null from here on, without looking at the log.
   */
  public boolean ended() {
    return !position.inSnapshot() && position.version() > lastVersion;
  }

  /**
   * The Delta table id of the table the rows returned last belong to, null before any: a table
   * replaced in place (REPLACE TABLE) has a new id from the replacing version on.
   */
  public String tableId() {
    return tableId;
  }

  /**
   * The operation (WRITE, MERGE, DELETE, UPDATE ...) that the commitInfo of the version whose rows
   * were returned last names; null before any, when the commit names none, or for snapshot rows.
   */
  public String operation() {
    return operation;
  }

  /**
   * Returns the next rows, at most {@code maxRows}, all of one version (or of the initial snapshot)
   * and so of one schema; or null when the feed has caught up with the table's latest commit. A
   * batch says whether it completes its version: a version whose remaining files turn out to hold
   * no rows ends with a batch of no rows. A batch of no rows that ends nothing means that this
   * call's time budget ran out while skipping versions without rows; the position has moved all the
   * same. Each call with nothing buffered looks for new commits once: two file probes when there
   * are none, a listing of the log from the next version when there are.
   */
  public ChangeBatch next(int maxRows) {
    long deadline = System.nanoTime() + SKIP_BUDGET_NANOS;
    List<ChangeRow> rows = new ArrayList<>(Math.min(maxRows, 4096));
    FieldType.Struct batchSchema = null;
    while (rows.size() < maxRows) {
      if (openSegmentEnded()) {
        return new ChangeBatch(batchSchema, rows, position, true);
      }
      if (file == null) {
        Opening opening = openNextFile(deadline);
        if (opening == Opening.SEGMENT_ENDED) {
          continue;
        }
        if (opening == Opening.CAUGHT_UP) {
          return rows.isEmpty() ? null : new ChangeBatch(batchSchema, rows, position, false);
        }
        if (opening == Opening.OUT_OF_TIME) {
          return new ChangeBatch(batchSchema, rows, position, false);
        }
      }
      batchSchema = file.schema().logical();
      tableId = file.schema().tableId();
      operation = position.inSnapshot() ? null : versions.plannedOperation();
      openSegment = segmentOf(position);
      FileRowCursor cursor = file.cursor();
      while (rows.size() < maxRows && cursor.hasNext()) {
        cursor.next();
        rows.add(currentRow());
      }
      if (!cursor.hasNext()) {
        finishFile();
      }
    }
    return new ChangeBatch(batchSchema, rows, position, openSegmentEnded());
  }

  @Override
  public void close() {
    closeFile();
    if (versions != null) {
      versions.close();
    }
  }

  /**
   * Whether the position has left the version (or snapshot) whose rows were last returned. The end
   * is then reported once, so that callers can close what the version left open.
   */
  private boolean openSegmentEnded() {
    if (openSegment == null || openSegment.equals(segmentOf(position))) {
      return false;
    }
    openSegment = null;
    return true;
  }

  /** The initial snapshot or a commit version: where one version's rows end. */
  private record Segment(boolean snapshot, long version) {}

  private static boolean atSegmentStart(ChangePosition position) {
    return position.equals(ChangePosition.InVersion.start(position.version()))
        || position.equals(ChangePosition.InSnapshot.start(position.version()));
  }

  private static Segment segmentOf(ChangePosition position) {
    return new Segment(position.inSnapshot(), position.version());
  }

  /** What looking for the next file with rows came to. */
  private enum Opening {
    OPENED,
    SEGMENT_ENDED,
    CAUGHT_UP,
    OUT_OF_TIME
  }

  /**
   * Opens the next file that has rows, passing over empty files and versions without rows, but
   * stopping where the open version ends and, between versions that are already listed, once past
   * {@code deadline}.
   */
  private Opening openNextFile(long deadline) {
    while (true) {
      ChangePosition before = position;
      if ((snapshotOnly && !position.inSnapshot()) || ended()) {
        return Opening.CAUGHT_UP;
      }
      // The snapshot reads inside it, the versions once the snapshot (if any) is behind.
      FeedStep step = position.match(at -> open(snapshot, at), at -> open(versions(), at));
      if (step.file() != null) {
        file = step.file();
        if (file.cursor().hasNext()) {
          return Opening.OPENED;
        }
        finishFile();
      } else if (step.moveTo() != null) {
        position = step.moveTo();
      } else {
        return Opening.CAUGHT_UP;
      }
      if (openSegment != null && !openSegment.equals(segmentOf(position))) {
        return Opening.SEGMENT_ENDED;
      }
      boolean moreListed = versions != null && versions.moreListed();
      if (position.version() != before.version()
          && moreListed
          && System.nanoTime() - deadline > 0) {
        return Opening.OUT_OF_TIME;
      }
    }
  }

  /** Asks {@code phase} for the file at {@code at}; the phase that opens one is read from. */
  private <P extends ChangePosition> FeedStep open(Phase<P> phase, P at) {
    FeedStep step = phase.open(at);
    if (step.file() != null) {
      reading = phase;
      if (rules.shard() != null) {
        step.file().cursor().keepOnly(rules.shard(), phase::within);
      }
    }
    return step;
  }

  /** The versions phase, which a snapshot before it hands its schema and timestamps. */
  private VersionPhase versions() {
    if (versions == null) {
      versions =
          snapshot == null
              ? new VersionPhase(context, log, rules)
              : new VersionPhase(context, log, rules, snapshot.schema(), snapshot.timestamps());
    }
    return versions;
  }

  /**
   * The row the cursor is on. Its position stays inside the file while the file has more rows; the
   * position after a file's last row is left to {@link #finishFile()}.
   */
  private ChangeRow currentRow() {
    FileRowCursor cursor = file.cursor();
    // A shard's row is the last of its file only if no row of another shard follows either.
    boolean lastInFile = cursor.lastChange();
    ChangePosition after =
        lastInFile ? reading.afterFile() : reading.within(cursor.physicalRow() + 1);
    long version = position.version();
    if (!lastInFile) {
      position = after;
    }
    return new ChangeRow(
        cursor.type(), cursor.label(), version, file.commitTimestamp(), cursor.values(), after);
  }

  /** Moves past the file being read. */
  private void finishFile() {
    bytesRead += Math.max(0, file.cursor().file().size());
    closeFile();
    ChangePosition after = reading.afterFile();
    reading.fileFinished();
    position = after;
  }

  private void closeFile() {
    if (file != null) {
      try {
        file.cursor().close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      file = null;
    }
  }
}
