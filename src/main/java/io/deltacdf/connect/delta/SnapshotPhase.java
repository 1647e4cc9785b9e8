package io.deltacdf.connect.delta;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.delta.kernel.Snapshot;
import java.util.List;

/**
 * The initial snapshot of a feed: the snapshot's data files in path order, handed out one window
 * at a time, every row an insert carrying the timestamp of the snapshot's own commit. The snapshot
 * is loaded when the first file is asked for. A slice of the snapshot reads only its own files.
 */
final class SnapshotPhase {

  private final FeedContext context;
  private final DeltaLog log;
  private final ChangeRules rules;
  private final long version;
  private final int windowSize;
  private final SnapshotSlice slice;

  private TableSchema schema;
  private CommitTimestamps timestamps;
  private SnapshotFiles files;
  private long commitTimestamp;
  private SnapshotFiles.Window window;
  private int windowIndex;

  SnapshotPhase(
      FeedContext context,
      DeltaLog log,
      ChangeRules rules,
      long version,
      int windowSize,
      SnapshotSlice slice) {
    this.context = context;
    this.log = log;
    this.rules = rules;
    this.version = version;
    this.windowSize = windowSize;
    this.slice = slice;
  }

  /** Opens the file at {@code at}, or moves on to the versions after the snapshot's last file. */
  FeedStep open(ChangePosition.InSnapshot at) {
    if (files == null) {
      load();
    }
    if (window == null || windowIndex >= window.files().size()) {
      window = files.window(at.path());
      windowIndex = 0;
      if (window.files().isEmpty()) {
        return FeedStep.moveTo(ChangePosition.InVersion.start(version + 1));
      }
    }
    ChangeFile file = window.files().get(windowIndex);
    long fromRow = file.path().equals(at.path()) ? at.nextRow() : 0;
    return FeedStep.read(
        new OpenedFile(
            new FileRowCursor(context, version, file, schema, fromRow), schema, commitTimestamp));
  }

  /** The position of row {@code nextRow} of the file being read. */
  ChangePosition within(ChangeFile file, long nextRow) {
    return new ChangePosition.InSnapshot(version, file.path(), nextRow);
  }

  /** The position right after the file being read. */
  ChangePosition afterFile() {
    int next = windowIndex + 1;
    if (next < window.files().size()) {
      return new ChangePosition.InSnapshot(version, window.files().get(next).path(), 0);
    }
    if (window.last()) {
      return ChangePosition.InVersion.start(version + 1);
    }
    return new ChangePosition.InSnapshot(version, window.following(), 0);
  }

  /** Moves past the file being read. */
  void fileFinished() {
    windowIndex++;
  }

  /** The version the snapshot is of, known once it is loaded; -1 before. */
  long loadedVersion() {
    return files == null ? -1 : version;
  }

  /** How many of the snapshot's files were read while it is being read; 0 before the first. */
  long filesDone() {
    return window == null ? 0 : Math.min(window.total(), window.before() + windowIndex);
  }

  /** How many files the snapshot has, known once its first window is listed; 0 before. */
  long filesTotal() {
    return window == null ? 0 : window.total();
  }

  /** The schema the versions after the snapshot start from. */
  TableSchema schema() {
    return schema;
  }

  /** The timestamp chain, advanced over the snapshot's commit, for the versions after it. */
  CommitTimestamps timestamps() {
    return timestamps;
  }

  private void load() {
    Snapshot snapshot = TableAccess.snapshotAt(context, version);
    schema = TableSchema.of(TableMetadata.of(snapshot));
    if (rules.source() == ChangeSource.CDF) {
      TableAccess.requireChangeDataFeed(context, schema, version);
    }
    files = new SnapshotFiles(context, snapshot, windowSize, slice);
    timestamps = CommitTimestamps.startingAt(log, version);
    commitTimestamp = commitTimestamp(snapshot);
  }

  /** The snapshot rows carry the timestamp of the snapshot's own commit. */
  private long commitTimestamp(Snapshot snapshot) {
    List<DeltaLog.Commit> commits = log.commitsFrom(version, 1);
    if (commits.isEmpty()) {
      // The commit was cleaned up; the snapshot (from a checkpoint) still knows its time.
      return snapshot.getTimestamp(context.engine());
    }
    return timestamps.next(
        commits.get(0), CommitRanges.inCommitTimestamp(context, log, version));
  }
}
