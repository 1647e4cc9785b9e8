package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.config.RowFilterParser;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.task.signal.Signal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What signals do to one stream, and when its notifications go out. Signals act only where the
 * stream can take them ({@link TableStream#handedOverTo}: between versions, or anywhere in a
 * snapshot), and each is notified as accepted or rejected with the reason. The table's position
 * records the signal, so a restart neither repeats nor forgets it.
 */
final class TableSteering {

  private static final Logger log = LoggerFactory.getLogger(TableSteering.class);

  private final TableStream stream;
  private final TablePosition position;
  private final TableNotices notices;
  private final SnapshotNotices snapshots;
  private final Redaction redaction;

  /** Whether a pause signal holds the table (also stored in its offsets). */
  private boolean paused;

  TableSteering(
      TableStream stream,
      TablePosition position,
      TableNotices notices,
      SnapshotNotices snapshots,
      Redaction redaction) {
    this.stream = stream;
    this.position = position;
    this.notices = notices;
    this.snapshots = snapshots;
    this.redaction = redaction;
    this.paused = position.signals().paused();
  }

  boolean paused() {
    return paused;
  }

  /**
   * Whether a signal can act on the stream now: it is open, its converter holds no update image
   * back, and it stands at the start of a version or inside a snapshot.
   */
  boolean atSignalPoint() {
    ChangePosition at = stream.handedOverTo();
    return at != null
        && (at.inSnapshot()
            || (!stream.inVersion()
                && at.match(s -> false, v -> v.fileIndex() == 0 && v.nextRow() == 0)));
  }

  /**
   * Acts on {@code signal} at a signal point, and notifies whether it was accepted or why not.
   * Returns false when that cannot be decided now (the store is unreachable): the signal waits.
   */
  boolean act(Signal signal, long nowMs) {
    String problem;
    try {
      problem = problemWith(signal);
    } catch (DeltaFeedException e) {
      if (e.kind() == DeltaFeedException.Kind.TRANSIENT) {
        return false;
      }
      problem = redaction.redact(e.getMessage());
    }
    stream.dropHeldRow();
    position.signalled(position.signals().withNextSignal(signal.offset() + 1));
    Map<String, String> details = new LinkedHashMap<>();
    details.put("signal_id", signal.id());
    details.put("signal_type", signal.type());
    if (problem != null) {
      details.put("reason", problem);
      notices.add(TableNotices.SIGNAL, "REJECTED", details, nowMs);
      log.warn(
          "Signal {} ({}) for {} is rejected: {}",
          signal.id(),
          signal.type(),
          stream.describe(),
          problem);
      return true;
    }
    notices.add(TableNotices.SIGNAL, "ACCEPTED", details, nowMs);
    log.info("Signal {} ({}) for {} is accepted", signal.id(), signal.type(), stream.describe());
    perform(signal, nowMs);
    return true;
  }

  /** Why {@code signal} cannot act on the table now, or null when it can. */
  private String problemWith(Signal signal) {
    ChangePosition at = position.read();
    return switch (signal.action()) {
      case EXECUTE_SNAPSHOT -> snapshotProblem(at, signal.filters().get(stream.table()));
      case STOP_SNAPSHOT ->
          stream.slice()
              ? "a slice of the table's initial snapshot cannot be stopped"
              : at.inSnapshot() ? null : "no snapshot of the table is in progress";
      case PAUSE -> paused ? "the table is paused already" : null;
      case RESUME -> paused ? null : "the table is not paused";
    };
  }

  /**
   * Why a snapshot cannot start at {@code at} with {@code condition} (null: none), or null when it
   * can: the table as of the version before {@code at} must still be readable.
   */
  private String snapshotProblem(ChangePosition at, String condition) {
    if (stream.slice()) {
      return "this is a slice of the table's initial snapshot; signal the table once its"
          + " snapshot is complete";
    }
    if (at.inSnapshot()) {
      return "a snapshot of the table is in progress; send stop-snapshot first, or wait for it to"
          + " complete";
    }
    if (at.version() == 0) {
      return "the stream has read no version yet, so it will send every row of the table anyway";
    }
    DeltaTable table = stream.deltaTable();
    LatestSnapshot latest = table.latestSnapshot();
    if (condition != null) {
      try {
        table.narrowedTo(RowFilterParser.parse(condition)).requireRowFilterFits(latest);
      } catch (IllegalArgumentException e) {
        return "its condition '" + condition + "' is not valid: " + e.getMessage();
      }
    }
    try {
      table.checkStored(ChangePosition.InSnapshot.start(at.version() - 1), latest);
    } catch (DeltaFeedException e) {
      if (e.kind() == DeltaFeedException.Kind.TRANSIENT) {
        throw e;
      }
      return "the table as of version "
          + (at.version() - 1)
          + ", where the stream stands, cannot be read any more: "
          + redaction.redact(e.getMessage());
    }
    return null;
  }

  /**
   * The records of the notifications waiting for the notification topic. Each carries the table's
   * partition and the offset where its records end ({@link TableStream#handedOverTo}), so it stores
   * that position as a heartbeat would; none go out while an update image waits or a version's
   * changes are half read. A table never opened has no offset: its notifications carry none.
   */
  List<SourceRecord> noticeRecords(Notifier notifier, long nowMs) {
    if (!notices.waiting()) {
      return List.of();
    }
    if (!stream.isOpen()) {
      return notices.take().stream().map(n -> notifier.record(n, null, null)).toList();
    }
    ChangePosition at = stream.handedOverTo();
    if (at == null || (stream.inVersion() && !at.inSnapshot())) {
      return List.of();
    }
    Map<String, Object> offset = position.offsetOf(at);
    Map<String, String> partition = stream.partition().toMap();
    List<SourceRecord> records =
        notices.take().stream().map(n -> notifier.record(n, partition, offset)).toList();
    position.sent(at, nowMs);
    return records;
  }

  private void perform(Signal signal, long nowMs) {
    ChangePosition at = position.read();
    switch (signal.action()) {
      case EXECUTE_SNAPSHOT -> {
        // The snapshot of the version before the stream's position: the table as the records
        // sent so far left it. Changes go on after it, so each key keeps its order.
        ChangePosition start = ChangePosition.InSnapshot.start(at.version() - 1);
        stream.startOver(start);
        String condition = signal.filters().getOrDefault(stream.table(), "");
        position.signalled(position.signals().withSnapshotFilter(condition));
        snapshots.signalled(start, signal.id(), condition, nowMs);
      }
      case STOP_SNAPSHOT -> {
        snapshots.stopped(at.version(), signal.id(), nowMs);
        stream.startOver(ChangePosition.InVersion.start(at.version() + 1));
        position.signalled(position.signals().withSnapshotFilter(null));
      }
      case PAUSE -> {
        paused = true;
        position.signalled(position.signals().withPaused(true));
        // A snapshot paused half way resumes in place: its rows so far are sent.
        stream.stopReading();
        notices.add(TableNotices.TABLE, "PAUSED", Map.of("signal_id", signal.id()), nowMs);
      }
      case RESUME -> {
        paused = false;
        position.signalled(position.signals().withPaused(false));
        stream.wake();
        notices.add(TableNotices.TABLE, "RESUMED", Map.of("signal_id", signal.id()), nowMs);
      }
    }
  }
}
