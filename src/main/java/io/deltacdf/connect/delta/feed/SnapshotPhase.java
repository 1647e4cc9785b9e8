package io.deltacdf.connect.delta.feed;

import io.delta.kernel.Snapshot;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.log.CommitRanges;
import io.deltacdf.connect.delta.log.CommitTimestamps;
import io.deltacdf.connect.delta.log.DeltaLog;
import io.deltacdf.connect.delta.plan.ChangeFile;
import io.deltacdf.connect.delta.plan.SnapshotFiles;
import io.deltacdf.connect.delta.read.FileRowCursor;
import io.deltacdf.connect.delta.read.OpenedFile;
import io.deltacdf.connect.delta.read.PartitionFilter;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.TableAccess;
import io.deltacdf.connect.delta.table.TableSchema;
import java.util.List;

/**
 * The initial snapshot of a feed: the snapshot's data files in path order, handed out one window at
 * a time, every row an insert carrying the timestamp of the snapshot's own commit. The snapshot is
 * loaded when the first file is asked for. A slice of the snapshot reads only its own files.
 */
public final class SnapshotPhase implements Phase<ChangePosition.InSnapshot> {

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

  public SnapshotPhase(
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
  @Override
  public FeedStep open(ChangePosition.InSnapshot at) {
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

  @Override
  public ChangePosition.InSnapshot within(long nextRow) {
    return new ChangePosition.InSnapshot(version, window.files().get(windowIndex).path(), nextRow);
  }

  @Override
  public ChangePosition afterFile() {
    int next = windowIndex + 1;
    if (next < window.files().size()) {
      return new ChangePosition.InSnapshot(version, window.files().get(next).path(), 0);
    }
    if (window.last()) {
      return ChangePosition.InVersion.start(version + 1);
    }
    return new ChangePosition.InSnapshot(version, window.following(), 0);
  }

  @Override
  public void fileFinished() {
    windowIndex++;
  }

  /** Holds nothing open between files. */
  @Override
  public void close() {}

  /** The version the snapshot is of, known once it is loaded; -1 before. */
  public long loadedVersion() {
    return files == null ? -1 : version;
  }

  /** How many of the snapshot's files were read while it is being read; 0 before the first. */
  public long filesDone() {
    return window == null ? 0 : Math.min(window.total(), window.before() + windowIndex);
  }

  /** How many files the snapshot has, known once its first window is listed; 0 before. */
  public long filesTotal() {
    return window == null ? 0 : window.total();
  }

  /** The schema the versions after the snapshot start from. */
  public TableSchema schema() {
    return schema;
  }

  /** The timestamp chain, advanced over the snapshot's commit, for the versions after it. */
  public CommitTimestamps timestamps() {
    return timestamps;
  }

  private void load() {
    Snapshot snapshot = TableAccess.snapshotAt(context, version);
    schema = rules.schemaOf(TableMetadata.of(snapshot));
    if (rules.source() == ChangeSource.CDF) {
      TableAccess.requireChangeDataFeedForSnapshot(context, schema, version);
    }
    files =
        new SnapshotFiles(
            context,
            snapshot,
            windowSize,
            slice,
            PartitionFilter.of(rules.rowFilter(), schema, context.table()));
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
    return timestamps.next(commits.get(0), CommitRanges.inCommitTimestamp(context, log, version));
  }
}
