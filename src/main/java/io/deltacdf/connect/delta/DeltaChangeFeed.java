package io.deltacdf.connect.delta;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FeedProgress;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Reads a table's change feed from a position on, in bounded batches, and keeps tailing the log
 * for new commits.
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
 * window of snapshot files are held at once; a version or snapshot of any size streams through.
 * A derived version that rewrites rows also holds its {@link RowDiff}: 16 to 24 bytes per
 * rewritten row while its first pass runs, then 24 to 32 bytes per changed row, up to a bounded
 * number of rows; larger diffs spill to local temp files, deleted when the feed plans the next
 * version or closes.
 *
 * <p>Not thread-safe: one feed is read by one thread.
 */
public final class DeltaChangeFeed implements AutoCloseable {

  /** How many commits one log listing plans ahead. */
  private static final int COMMITS_PER_LISTING = 500;

  /**
   * How long one call may pass over versions without rows before it returns, so that a caller
   * (a task's poll, and so a graceful stop) is never held for long by a long run of them.
   */
  static final long SKIP_BUDGET_NANOS = 1_000_000_000L;

  private final FeedContext context;
  private final DeltaLog log;
  private final int snapshotWindowSize;
  private final ChangeRules rules;

  private ChangePosition position;
  private TableSchema schema;
  private CommitTimestamps timestamps;

  // Snapshot phase.
  private SnapshotFiles snapshotFiles;
  private SnapshotFiles.Window window;
  private int windowIndex;
  private long snapshotTimestamp;

  // Version phase.
  private final Deque<DeltaLog.Commit> pendingCommits = new ArrayDeque<>();
  private CloseableIterator<CommitActions> commitActions;
  private VersionPlan plan;
  private long planTimestamp;
  /** The files the planned version's rows come from: its change files, or derived from. */
  private List<ChangeFile> planFiles;
  /** The planned version's derived changes, when they need a diff. */
  private DerivedVersion derivedVersion;

  private FileRowCursor cursor;
  private TableSchema cursorSchema;
  /** The version (or snapshot) whose rows were returned and whose end is not yet reported. */
  private Segment openSegment;

  // Progress, for metrics.
  private long latestKnownVersion = -1;
  private long bytesRead;

  DeltaChangeFeed(
      FeedContext context, ChangePosition start, int snapshotWindowSize, ChangeRules rules) {
    this.context = context;
    this.rules = rules;
    this.log = new DeltaLog(context);
    this.snapshotWindowSize = snapshotWindowSize;
    this.position = start;
    // A feed resumed inside a version reports that version's end, even if no row is left in it.
    this.openSegment = atSegmentStart(start) ? null : segmentOf(start);
    if (start instanceof ChangePosition.InSnapshot inSnapshot) {
      startSnapshot(inSnapshot.version());
    } else {
      startVersions(start.version());
    }
  }

  /** How far the feed has come. */
  public FeedProgress progress() {
    long done = 0;
    long total = 0;
    if (window != null) {
      total = window.total();
      done = Math.min(total, window.before() + windowIndex);
      if (!(position instanceof ChangePosition.InSnapshot)) {
        done = total;
      }
    }
    return new FeedProgress(latestKnownVersion, done, total, bytesRead);
  }

  /** Where reading continues: every row before it has been returned. */
  public ChangePosition position() {
    return position;
  }

  /**
   * Returns the next rows, at most {@code maxRows}, all of one version (or of the initial
   * snapshot) and so of one schema; or null when the feed has caught up with the table's latest
   * commit. A batch says whether it completes its version: a version whose remaining files turn
   * out to hold no rows ends with a batch of no rows. A batch of no rows that ends nothing means
   * that this call's time budget ran out while skipping versions without rows; the position has
   * moved all the same. Each call with nothing buffered looks for new commits once: two file
   * probes when there are none, a listing of the log from the next version when there are.
   */
  public ChangeBatch next(int maxRows) {
    long deadline = System.nanoTime() + SKIP_BUDGET_NANOS;
    List<ChangeRow> rows = new ArrayList<>(Math.min(maxRows, 4096));
    FieldType.Struct batchSchema = null;
    while (rows.size() < maxRows) {
      if (openSegmentEnded()) {
        return new ChangeBatch(batchSchema, rows, position, true);
      }
      if (cursor == null) {
        Opening opening = openNextCursor(deadline);
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
      batchSchema = cursorSchema.logical();
      openSegment = segmentOf(position);
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

  /**
   * Whether the position has left the version (or snapshot) whose rows were last returned. The
   * end is then reported once, so that callers can close what the version left open.
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
    return new Segment(position instanceof ChangePosition.InSnapshot, position.version());
  }

  @Override
  public void close() {
    closeCursor();
    closeDerivedVersion();
    closeCommitActions();
  }

  // ---- snapshot phase ----

  private void startSnapshot(long version) {
    Snapshot snapshot = TableAccess.snapshotAt(context, version);
    schema = TableSchema.of(TableMetadata.of(snapshot));
    if (rules.source() == ChangeSource.CDF) {
      TableAccess.requireChangeDataFeed(context, schema, version);
    }
    snapshotFiles = new SnapshotFiles(context, snapshot, snapshotWindowSize);
    latestKnownVersion = version;
    timestamps = CommitTimestamps.startingAt(log, version);
    snapshotTimestamp = snapshotCommitTimestamp(snapshot);
  }

  /** The snapshot rows carry the timestamp of the snapshot's own commit. */
  private long snapshotCommitTimestamp(Snapshot snapshot) {
    long version = snapshot.getVersion();
    List<DeltaLog.Commit> commits = log.commitsFrom(version, 1);
    if (commits.isEmpty()) {
      // The commit was cleaned up; the snapshot (from a checkpoint) still knows its time.
      return snapshot.getTimestamp(context.engine());
    }
    VersionPlan commit = planSingle(version);
    return timestamps.next(commits.get(0), commit.inCommitTimestamp());
  }

  private boolean openNextSnapshotCursor() {
    ChangePosition.InSnapshot at = (ChangePosition.InSnapshot) position;
    if (window == null || windowIndex >= window.files().size()) {
      window = snapshotFiles.window(at.path());
      windowIndex = 0;
      if (window.files().isEmpty()) {
        position = ChangePosition.InVersion.start(at.version() + 1);
        return false;
      }
    }
    ChangeFile file = window.files().get(windowIndex);
    long fromRow = file.path().equals(at.path()) ? at.nextRow() : 0;
    openCursor(at.version(), file, fromRow);
    return true;
  }

  // ---- version phase ----

  private void startVersions(long version) {
    // Fails first, with the ways out, if the log no longer reaches back to this version.
    log.nextCommits(version, 1);
    schema = version == 0 ? null : schemaBefore(version);
    timestamps = CommitTimestamps.startingAt(log, version);
  }

  /** The schema in force just before {@code version}, i.e. at {@code version - 1}. */
  private TableSchema schemaBefore(long version) {
    Snapshot snapshot;
    try {
      snapshot = TableAccess.snapshotAt(context, version - 1);
    } catch (DeltaFeedException e) {
      if (e.kind() != DeltaFeedException.Kind.HISTORY_MISSING) {
        throw e;
      }
      // The log was cleaned up to a checkpoint at `version`: its snapshot includes the version's
      // own metadata, which the version's commit re-applies anyway.
      snapshot = TableAccess.snapshotAt(context, version);
    }
    return TableSchema.of(TableMetadata.of(snapshot));
  }

  private boolean openNextVersionCursor() {
    ChangePosition.InVersion at = (ChangePosition.InVersion) position;
    if (plan == null || plan.version() != at.version()) {
      if (!planNextVersion(at.version())) {
        return false;
      }
    }
    if (at.fileIndex() >= planFiles.size()) {
      position = ChangePosition.InVersion.start(at.version() + 1);
      return false;
    }
    if (derivedVersion != null) {
      cursor = derivedVersion.open(at.fileIndex(), at.nextRow());
      cursorSchema = schema;
      return true;
    }
    openCursor(at.version(), planFiles.get(at.fileIndex()), at.nextRow());
    return true;
  }

  /** Plans {@code version}, or returns false when it has not been committed yet. */
  private boolean planNextVersion(long version) {
    if (pendingCommits.isEmpty()) {
      closeCommitActions();
      List<DeltaLog.Commit> commits =
          plan == null
              ? log.nextCommits(version, COMMITS_PER_LISTING)
              : log.commitsAfterRead(version, COMMITS_PER_LISTING);
      if (commits.isEmpty()) {
        return false;
      }
      latestKnownVersion =
          Math.max(latestKnownVersion, commits.get(commits.size() - 1).version());
      pendingCommits.addAll(commits);
      commitActions = openCommitRange(version, commits.get(commits.size() - 1).version());
    }
    DeltaLog.Commit commit = pendingCommits.removeFirst();
    try (CommitActions actions = nextCommitActions(commit.version())) {
      plan = CommitPlanner.plan(context.table(), actions);
    } catch (DeltaFeedException e) {
      throw e;
    } catch (Exception e) {
      throw KernelErrors.translate(
          context.table(), "version " + commit.version(), log.commitFile(commit.version()), e);
    }
    planTimestamp = timestamps.next(commit, plan.inCommitTimestamp());
    if (plan.newSchema().isPresent()) {
      TableSchema next = plan.newSchema().get();
      if (schema != null && !schema.tableId().equals(next.tableId())) {
        throw new DeltaFeedException(
            DeltaFeedException.Kind.TABLE_REPLACED,
            "Table "
                + context.table()
                + " was replaced at version "
                + version
                + " (its table id changed, as CREATE OR REPLACE TABLE does): rows before and"
                + " after it belong to different tables. Restart the connector from a fresh"
                + " snapshot (DELETE its offsets, or set on.history.missing=resnapshot)");
      }
      schema = next;
    }
    if (schema == null) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          "Table " + context.table() + " version " + version + " has no metadata");
    }
    boolean fromChangeData = rules.readsChangeData(schema);
    if (fromChangeData) {
      TableAccess.requireChangeDataFeed(context, schema, version);
    }
    planFiles = fromChangeData ? plan.files() : plan.dataFiles();
    closeDerivedVersion();
    derivedVersion =
        !fromChangeData && plan.derivationNeedsDiff()
            ? new DerivedVersion(context, version, planFiles, schema, rules.keyColumns())
            : null;
    return true;
  }

  private VersionPlan planSingle(long version) {
    try (CloseableIterator<CommitActions> single = openCommitRange(version, version);
        CommitActions actions = single.next()) {
      return CommitPlanner.plan(context.table(), actions);
    } catch (DeltaFeedException e) {
      throw e;
    } catch (Exception e) {
      throw KernelErrors.translate(
          context.table(), "version " + version, log.commitFile(version), e);
    }
  }

  private CloseableIterator<CommitActions> openCommitRange(long from, long to) {
    try {
      CommitRange range =
          TableManager.loadCommitRange(context.tableRoot(), CommitBoundary.atVersion(from))
              .withEndBoundary(CommitBoundary.atVersion(to))
              .build(context.engine());
      return LogActions.commits(range, context.engine(), CommitPlanner.ACTIONS);
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), "versions " + from + " to " + to, e);
    }
  }

  private CommitActions nextCommitActions(long version) {
    CommitActions actions = commitActions.next();
    if (actions.getVersion() != version) {
      throw new IllegalStateException(
          "Expected commit " + version + " but the log returned " + actions.getVersion());
    }
    return actions;
  }

  /** Deletes the spill files of the derived version before the feed leaves it. */
  private void closeDerivedVersion() {
    if (derivedVersion != null) {
      derivedVersion.close();
      derivedVersion = null;
    }
  }

  private void closeCommitActions() {
    if (commitActions != null) {
      try {
        commitActions.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      commitActions = null;
    }
    pendingCommits.clear();
  }

  // ---- cursors and positions ----

  /** What looking for the next file with rows came to. */
  private enum Opening {
    OPENED,
    SEGMENT_ENDED,
    CAUGHT_UP,
    OUT_OF_TIME
  }

  /**
   * Opens a cursor on the next file that has rows, passing over empty files and versions without
   * rows, but stopping where the open version ends and, between versions that are already
   * listed, once past {@code deadline}.
   */
  private Opening openNextCursor(long deadline) {
    while (true) {
      ChangePosition before = position;
      boolean opened =
          position instanceof ChangePosition.InSnapshot
              ? openNextSnapshotCursor()
              : openNextVersionCursor();
      if (opened && cursor.hasNext()) {
        return Opening.OPENED;
      }
      if (opened) {
        finishFile();
      } else if (position.equals(before)) {
        return Opening.CAUGHT_UP;
      }
      if (openSegment != null && !openSegment.equals(segmentOf(position))) {
        return Opening.SEGMENT_ENDED;
      }
      boolean moreListed = !pendingCommits.isEmpty();
      if (position.version() != before.version() && moreListed && System.nanoTime() - deadline > 0) {
        return Opening.OUT_OF_TIME;
      }
    }
  }

  private void openCursor(long version, ChangeFile file, long fromRow) {
    cursor = new FileRowCursor(context, version, file, schema, fromRow);
    cursorSchema = schema;
  }

  /**
   * The row the cursor is on. Its position stays inside the file while the file has more rows;
   * the position after a file's last row is left to {@link #finishFile()}.
   */
  private ChangeRow currentRow() {
    boolean lastInFile = !cursor.hasNext();
    ChangePosition after = lastInFile ? afterFile() : within(cursor.physicalRow() + 1);
    long version = position.version();
    long timestamp = position instanceof ChangePosition.InSnapshot ? snapshotTimestamp : planTimestamp;
    if (!lastInFile) {
      position = after;
    }
    return new ChangeRow(
        cursor.type(), cursor.label(), version, timestamp, cursor.values(), after);
  }

  /** Moves past the file the cursor reads. */
  private void finishFile() {
    bytesRead += Math.max(0, cursor.file().size());
    closeCursor();
    boolean inSnapshot = position instanceof ChangePosition.InSnapshot;
    position = afterFile();
    if (inSnapshot) {
      windowIndex++;
    }
  }

  /** The position of row {@code nextRow} in the file the cursor reads. */
  private ChangePosition within(long nextRow) {
    if (position instanceof ChangePosition.InSnapshot at) {
      return new ChangePosition.InSnapshot(at.version(), cursor.file().path(), nextRow);
    }
    ChangePosition.InVersion at = (ChangePosition.InVersion) position;
    return new ChangePosition.InVersion(at.version(), at.fileIndex(), nextRow);
  }

  /** The position right after the file the cursor reads (or just read). */
  private ChangePosition afterFile() {
    if (position instanceof ChangePosition.InSnapshot at) {
      int next = windowIndex + 1;
      if (next < window.files().size()) {
        return new ChangePosition.InSnapshot(at.version(), window.files().get(next).path(), 0);
      }
      if (window.last()) {
        return ChangePosition.InVersion.start(at.version() + 1);
      }
      return new ChangePosition.InSnapshot(at.version(), window.following(), 0);
    }
    ChangePosition.InVersion at = (ChangePosition.InVersion) position;
    if (at.fileIndex() + 1 < planFiles.size()) {
      return new ChangePosition.InVersion(at.version(), at.fileIndex() + 1, 0);
    }
    return ChangePosition.InVersion.start(at.version() + 1);
  }

  private void closeCursor() {
    if (cursor != null) {
      try {
        cursor.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      cursor = null;
    }
  }
}
