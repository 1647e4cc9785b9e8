package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link TableStream} does when its feed fails: back off from a transient failure, start the
 * table over from a snapshot, or stop a discovered table whose folder is gone (the task goes on
 * with its other tables). Any other failure fails the task.
 */
final class FeedRecovery {

  private static final Logger log = LoggerFactory.getLogger(FeedRecovery.class);

  /** How the stream goes on. */
  enum Outcome {
    /** Read again at {@link #retryAtMs()}, from the last position read. */
    BACKED_OFF,
    /** Read on from the position's new start: what the stream held is to be dropped. */
    STARTED_OVER,
    /** Read no more until a rescan drops the table. */
    GONE
  }

  private final String table;
  private final TablePosition position;
  private final TableOpener opener;
  private final Resnapshots resnapshots;
  private final Redaction redaction;
  private final TableMetrics metrics;
  private final TableNotices notices;
  private final SnapshotNotices snapshots;
  private final ReadBackoff backoff;
  private long retryAtMs;

  FeedRecovery(
      String table,
      TablePosition position,
      TableOpener opener,
      Resnapshots resnapshots,
      Redaction redaction,
      TableMetrics metrics,
      TableNotices notices,
      SnapshotNotices snapshots) {
    this.table = table;
    this.position = position;
    this.opener = opener;
    this.resnapshots = resnapshots;
    this.redaction = redaction;
    this.metrics = metrics;
    this.notices = notices;
    this.snapshots = snapshots;
    this.backoff = new ReadBackoff(table, redaction);
  }

  /** A read succeeded: the next transient failure backs off from the shortest delay again. */
  void succeeded() {
    backoff.succeeded();
  }

  /** When a stream that {@link Outcome#BACKED_OFF} is to read again. */
  long retryAtMs() {
    return retryAtMs;
  }

  /**
   * Recovers from {@code e}, a failure of the feed of {@code opened} (null when the table did not
   * open), or rethrows it. {@code slice} says whether the stream reads a snapshot slice, which
   * never starts over: its table's own stream does.
   */
  Outcome recover(DeltaFeedException e, TableOpener.Opened opened, boolean slice, long nowMs) {
    if (e.kind() == DeltaFeedException.Kind.TRANSIENT) {
      retryAtMs = backoff.failed(e, nowMs);
      return Outcome.BACKED_OFF;
    }
    if (opened != null && !slice && resnapshots.apply(e)) {
      try {
        DeltaTable deltaTable = opened.table();
        LatestSnapshot latest = deltaTable.latestSnapshot();
        ChangePosition start =
            resnapshots.startOver(table, deltaTable, latest, e, opened.lastVersion());
        // A replaced table (CREATE OR REPLACE) has another id from here on.
        position.startsOver(start, deltaTable.identity(latest));
        snapshots.startedOver(start, e.kind() == DeltaFeedException.Kind.TABLE_REPLACED, nowMs);
      } catch (DeltaFeedException resolveError) {
        return recover(resolveError, opened, slice, nowMs);
      }
      metrics.recordResnapshot();
      return Outcome.STARTED_OVER;
    }
    if (opener.discoveredAndGone(table)) {
      log.warn(
          "Table {} was found below a table root and its folder no longer holds a table: its"
              + " stream stops, its offsets stay, and the next rescan of the roots drops it ({})",
          table,
          redaction.redact(e.getMessage()));
      notices.add(TableNotices.TABLE, "GONE", Map.of(), nowMs);
      return Outcome.GONE;
    }
    throw e;
  }
}
