package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.FeedProgress;
import java.util.Map;

/**
 * The notifications a stream makes about its table and the snapshots it reads: the table found or
 * re-created, a snapshot started, in progress, completed or stopped, with the rows read of it.
 */
final class SnapshotNotices {

  private final TableNotices notices;
  private final TablePosition position;

  /** Snapshot rows read since the snapshot started (or the stream resumed inside it). */
  private long rows;

  SnapshotNotices(TableNotices notices, TablePosition position) {
    this.notices = notices;
    this.position = position;
  }

  /** The table was opened at {@code start}, as {@code kind} says. */
  void opened(TableOpener.StartKind kind, ChangePosition start, long nowMs) {
    switch (kind) {
      case CONFIGURED -> {
        if (position.stored() == null) {
          notices.add(TableNotices.TABLE, "FOUND", Map.of(), nowMs);
        }
      }
      case ANOTHER_TABLE -> notices.add(TableNotices.TABLE, "RECREATED", Map.of(), nowMs);
      default -> {}
    }
    start.match(
        snapshot -> {
          boolean fresh = snapshot.path().isEmpty() && snapshot.nextRow() == 0;
          notices.add(
              kind(),
              fresh ? "STARTED" : "IN_PROGRESS",
              TableNotices.snapshotDetails(snapshot.version(), null, 0),
              nowMs);
          return null;
        },
        version -> null);
  }

  /**
   * A read began inside a snapshot: counts its rows, and notifies its progress, or its end when the
   * read left it (a signalled snapshot's condition then leaves the offsets).
   */
  void read(ChangeBatch batch, FeedProgress progress, long nowMs) {
    if (batch != null) {
      rows += batch.rows().size();
    }
    ChangePosition at = position.read();
    if (at.inSnapshot()) {
      notices.snapshotProgress(kind(), at.version(), progress, rows, nowMs);
      return;
    }
    notices.add(
        kind(), "COMPLETED", TableNotices.snapshotDetails(at.version() - 1, progress, rows), nowMs);
    rows = 0;
    if (position.signals().snapshotFilter() != null) {
      position.signalled(position.signals().withSnapshotFilter(null));
    }
  }

  /** The table starts over from a snapshot at {@code start}; {@code replaced}: by another. */
  void startedOver(ChangePosition start, boolean replaced, long nowMs) {
    if (replaced) {
      notices.add(TableNotices.TABLE, "RECREATED", Map.of(), nowMs);
    }
    rows = 0;
    notices.add(
        TableNotices.INITIAL_SNAPSHOT,
        "STARTED",
        TableNotices.snapshotDetails(start.version(), null, 0),
        nowMs);
  }

  /** An execute-snapshot signal started a snapshot at {@code start}. */
  void signalled(ChangePosition start, String signalId, String condition, long nowMs) {
    rows = 0;
    Map<String, String> details = TableNotices.snapshotDetails(start.version(), null, 0);
    details.put("signal_id", signalId);
    if (!condition.isEmpty()) {
      details.put("condition", condition);
    }
    notices.add(TableNotices.SIGNALLED_SNAPSHOT, "STARTED", details, nowMs);
  }

  /** A stop-snapshot signal ended the snapshot of {@code version} where it stood. */
  void stopped(long version, String signalId, long nowMs) {
    Map<String, String> details = TableNotices.snapshotDetails(version, null, rows);
    details.put("signal_id", signalId);
    notices.add(kind(), "ABORTED", details, nowMs);
    rows = 0;
  }

  /** What the snapshot the stream is in is called in notifications. */
  private String kind() {
    return position.signals().snapshotFilter() != null
        ? TableNotices.SIGNALLED_SNAPSHOT
        : TableNotices.INITIAL_SNAPSHOT;
  }
}
