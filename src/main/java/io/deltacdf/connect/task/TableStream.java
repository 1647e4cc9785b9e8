package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.RowFilterParser;
import io.deltacdf.connect.convert.Converted;
import io.deltacdf.connect.convert.HeartbeatRecords;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.signal.Signal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table (or snapshot slice) read by a task: its feed, its record converter, and when to look
 * for new commits after it has caught up. It reads rows, hands their records to the poll, and notes
 * in its {@link TablePosition} where each step left the table, so no caller handles a position.
 *
 * <p>The table is opened by the first read, not when the task starts, so that a store that is
 * unreachable while the task starts is retried with backoff like any later read.
 */
final class TableStream implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TableStream.class);

  private final String table;

  /** The table's partition, or its snapshot slice's. */
  private final TablePartition partition;

  private final TablePosition position;

  /** Opens the table by the first read. */
  private final TableOpener opener;

  /** Starts the table over from a snapshot when it must. */
  private final Resnapshots resnapshots;

  private final Redaction redaction;
  private final TableMetrics metrics;

  /** BEGIN and END around each version's records, with provide.transaction.metadata=true. */
  private final VersionTransactions versionTransactions;

  private final ReadBackoff backoff;
  private final SchemaChanges schemaChanges;
  private final TableNotices notices;

  /** Snapshot rows read since the snapshot started (or the stream resumed inside it). */
  private long snapshotRows;

  /** Whether the feed reads a signalled snapshot's condition alone, and ends with it. */
  private boolean conditionFeed;

  /** Whether a pause signal holds the table (also stored in its offsets). */
  private boolean paused;

  private TableOpener.Opened opened;
  private DeltaChangeFeed feed;
  private long idleUntilMs;

  /** Whether rows of a version have been read whose end has not been read yet. */
  private boolean inVersion;

  /** A table found below a root whose folder is gone: read no more until a rescan drops it. */
  private boolean gone;

  TableStream(
      TablePartition partition,
      TablePosition position,
      TableOpener opener,
      Resnapshots resnapshots,
      Redaction redaction,
      TableMetrics metrics,
      VersionTransactions versionTransactions,
      TableNotices notices) {
    this.table = partition.table();
    this.partition = partition;
    this.position = position;
    this.opener = opener;
    this.resnapshots = resnapshots;
    this.redaction = redaction;
    this.metrics = metrics;
    this.versionTransactions = versionTransactions;
    this.backoff = new ReadBackoff(table, redaction);
    this.schemaChanges = new SchemaChanges(table);
    this.notices = notices;
    this.paused = position.signals().paused();
  }

  String table() {
    return table;
  }

  TablePosition position() {
    return position;
  }

  /** Whether this stream reads a slice of a snapshot, not a whole table. */
  boolean slice() {
    return partition.slice() != null;
  }

  /**
   * Whether the stream is to be read now. A paused one is not, but for its first read, which opens
   * the table and reads nothing: a signal acts only on an open table, and only a signal resumes.
   */
  boolean due(long nowMs) {
    return (!paused || opened == null) && nowMs >= idleUntilMs;
  }

  long idleUntilMs() {
    return paused && opened != null ? Long.MAX_VALUE : idleUntilMs;
  }

  TableNotices notices() {
    return notices;
  }

  /** Whether rows of a version have been read and the version's end has not. */
  boolean inVersion() {
    return inVersion;
  }

  /**
   * The next rows, possibly none (see {@link DeltaChangeFeed#next}), or null when the table has
   * caught up or storage is unreachable (then it rests until {@code idleUntil}). After a failure
   * the next call reopens the feed at the last position read.
   */
  ChangeBatch next(int maxRows, long nowMs, long pollIntervalMs) {
    if (gone) {
      return null;
    }
    try {
      if (opened == null) {
        opened = opener.open(partition, position);
        metrics.recordEnd(opened.lastVersion());
        switch (opened.kind()) {
          case RESNAPSHOT -> metrics.recordResnapshot();
          case ANOTHER_TABLE -> metrics.recordAnotherTable();
          default -> {}
        }
        noticeOpened(nowMs);
      }
      if (paused) {
        return null;
      }
      if (feed == null) {
        openFeed();
      }
      boolean wasInSnapshot = position.read().inSnapshot();
      ChangeBatch batch = feed.next(maxRows);
      position.readTo(feed.position());
      position.follow(feed.tableId());
      metrics.recordProgress(feed.progress());
      backoff.succeeded();
      if (wasInSnapshot) {
        snapshotRead(batch, nowMs);
      }
      if (batch == null) {
        if (feed.ended() && conditionFeed) {
          // The signalled snapshot's condition is read: the changes after it are read unfiltered.
          closeFeed();
          return null;
        }
        idleUntilMs = feed.ended() && !slice() ? endReached(nowMs) : nowMs + pollIntervalMs;
        return null;
      }
      if (!batch.rows().isEmpty()) {
        metrics.recordBatch(batch);
        schemaChanges.read(batch);
        inVersion = true;
      }
      if (batch.endsVersion()) {
        inVersion = false;
      }
      return batch;
    } catch (DeltaFeedException e) {
      // The next call reopens the feed at the last position read.
      closeFeed();
      return recover(e, nowMs);
    }
  }

  /**
   * Opens the feed at the position read: the whole stream, or a signalled snapshot's condition
   * alone, up to that snapshot's end.
   */
  private void openFeed() {
    ChangePosition at = position.read();
    String condition = position.signals().snapshotFilter();
    if (at.inSnapshot() && condition != null && !condition.isBlank()) {
      DeltaTable narrowed = opened.table().narrowedTo(RowFilterParser.parse(condition));
      feed =
          narrowed.openFeed(at, SnapshotSlice.WHOLE, Math.min(at.version(), opened.lastVersion()));
      conditionFeed = true;
      return;
    }
    SnapshotSlice slice = slice() ? partition.slice() : SnapshotSlice.WHOLE;
    feed = opened.table().openFeed(at, slice, opened.lastVersion());
    conditionFeed = false;
  }

  /** Notifies how the table was opened, and the snapshot it starts or resumes in. */
  private void noticeOpened(long nowMs) {
    switch (opened.kind()) {
      case CONFIGURED -> {
        if (position.stored() == null) {
          notices.add(TableNotices.TABLE, "FOUND", Map.of(), nowMs);
        }
      }
      case ANOTHER_TABLE -> notices.add(TableNotices.TABLE, "RECREATED", Map.of(), nowMs);
      default -> {}
    }
    ChangePosition start = opened.start();
    if (start.inSnapshot()) {
      ChangePosition.InSnapshot snapshot = (ChangePosition.InSnapshot) start;
      boolean fresh = snapshot.path().isEmpty() && snapshot.nextRow() == 0;
      notices.add(
          snapshotKind(),
          fresh ? "STARTED" : "IN_PROGRESS",
          TableNotices.snapshotDetails(start.version(), null, 0),
          nowMs);
    }
  }

  /** What the snapshot the stream is in is called in notifications. */
  private String snapshotKind() {
    return position.signals().snapshotFilter() != null
        ? TableNotices.SIGNALLED_SNAPSHOT
        : TableNotices.INITIAL_SNAPSHOT;
  }

  /**
   * A read began inside a snapshot: counts its rows, and notifies its progress, or its end when the
   * read left it.
   */
  private void snapshotRead(ChangeBatch batch, long nowMs) {
    if (batch != null) {
      snapshotRows += batch.rows().size();
    }
    ChangePosition at = position.read();
    if (at.inSnapshot()) {
      notices.snapshotProgress(snapshotKind(), at.version(), feed.progress(), snapshotRows, nowMs);
      return;
    }
    notices.add(
        snapshotKind(),
        "COMPLETED",
        TableNotices.snapshotDetails(at.version() - 1, feed.progress(), snapshotRows),
        nowMs);
    snapshotRows = 0;
    if (position.signals().snapshotFilter() != null) {
      position.signalled(position.signals().withSnapshotFilter(null));
    }
  }

  /**
   * A bounded run has read the table's last version: the stream reads no more, while heartbeats
   * still store its final position, so a restart resumes there and is done at once.
   */
  private long endReached(long nowMs) {
    log.info(
        "Table {} is done: the bounded run read it up to and including version {}, and reads no"
            + " more (end.version / end.timestamp)",
        table,
        opened.lastVersion());
    metrics.recordEndReached();
    notices.add(
        TableNotices.TABLE,
        "DONE",
        Map.of("end_version", Long.toString(opened.lastVersion())),
        nowMs);
    return Long.MAX_VALUE;
  }

  /**
   * Adds the records of {@code batch} to the poll's {@code out}, and ends transactions where they
   * must end: at the end of a version, or once one holds transaction.max.rows records, but only
   * where no update image waits for its partner, so that the stored offset is exactly the position
   * after the last record. Returns true when this poll must end here: a transaction had to end
   * before any record of this poll, and Connect can end it only after the whole poll. A version's
   * BEGIN and END events (provide.transaction.metadata) go with its records, in its transactions.
   */
  boolean emit(
      ChangeBatch batch, TransactionBoundaries transactions, List<SourceRecord> out, long nowMs) {
    RecordConverter converter = opened.converter();
    boolean endPoll = false;
    for (ChangeRow row : batch.rows()) {
      versionTransactions.rowRead(row, position.converted(), feed.operation());
      hand(convert(row, batch.schema()), transactions, out, nowMs);
      if (transactions.full() && converter.noImagesWaiting()) {
        endPoll = transactions.commit(out);
        versionTransactions.committed();
      }
    }
    if (batch.endsVersion()) {
      hand(converter.endVersion(position.converted()), transactions, out, nowMs);
      SourceRecord end = versionTransactions.versionEnded();
      if (end != null) {
        out.add(end);
        transactions.added(1);
      }
      if (transactions.open()) {
        endPoll = transactions.commit(out);
      }
    }
    return endPoll;
  }

  /** The records of the next row read from the feed, which starts where the last one ended. */
  private Converted convert(ChangeRow row, FieldType.Struct rowSchema) {
    try {
      Converted records = opened.converter().convert(row, position.converted(), rowSchema);
      position.convertedTo(row.after());
      return records;
    } catch (RuntimeException e) {
      throw new ConnectException(
          redaction.redact("Table " + table + " version " + row.version() + ": " + e.getMessage()),
          e);
    }
  }

  private void hand(
      Converted converted, TransactionBoundaries transactions, List<SourceRecord> out, long now) {
    if (!converted.isEmpty()) {
      List<SourceRecord> records =
          versionTransactions.marked(converted.records(), position::offsetOf);
      out.addAll(records);
      transactions.added(records.size());
      position.sent(converted.lastOffset(), now);
    }
  }

  /**
   * The heartbeat that stores the position reached without a record, or null when it would store
   * nothing new: the table is not open yet, a version is half read, the converter holds rows back,
   * or none is due (see {@link TablePosition#heartbeatDue}).
   */
  SourceRecord heartbeatIfDue(HeartbeatRecords heartbeats, long nowMs, long intervalMs) {
    if (opened == null || inVersion || !opened.converter().settled()) {
      return null;
    }
    ChangePosition due = position.heartbeatDue(nowMs, intervalMs);
    return due == null ? null : heartbeat(heartbeats, due, nowMs);
  }

  /**
   * Goes back to the position the last committed transaction stored (or, when none was, to where
   * the feed started), dropping what was read since: the open transaction is being aborted. Returns
   * the heartbeat that stores that position, the last record of the aborted transaction, which
   * Connect stores the offset of. Any backoff in progress goes on.
   */
  SourceRecord returnToLastCommit(HeartbeatRecords heartbeats, long nowMs) {
    closeFeed();
    ChangePosition start = position.returnToLastCommit();
    restartConverter();
    versionTransactions.rewind();
    log.info(
        "Table {} backs off in the middle of a version: its open transaction is aborted and the"
            + " table reads again from {} once its store is back",
        table,
        start);
    return heartbeat(heartbeats, start, nowMs);
  }

  private SourceRecord heartbeat(HeartbeatRecords heartbeats, ChangePosition at, long nowMs) {
    SourceRecord heartbeat =
        heartbeats.heartbeat(table, partition.toMap(), at, position.offsetOf(at), nowMs);
    position.sent(at, nowMs);
    return heartbeat;
  }

  /**
   * Backs off from a transient failure, starts over from a snapshot, stops a discovered table whose
   * folder is gone (the task goes on with its other tables), or fails.
   */
  private ChangeBatch recover(DeltaFeedException e, long nowMs) {
    if (e.kind() == DeltaFeedException.Kind.TRANSIENT) {
      idleUntilMs = backoff.failed(e, nowMs);
      return null;
    }
    if (opened != null && !slice() && resnapshots.apply(e)) {
      try {
        DeltaTable deltaTable = opened.table();
        LatestSnapshot latest = deltaTable.latestSnapshot();
        if (latest.version() > opened.lastVersion()) {
          throw new ConnectException(
              redaction.redact(
                  e.getMessage()
                      + ". on.history.missing=resnapshot would start table "
                      + table
                      + " over from a snapshot at version "
                      + latest.version()
                      + ", after the bounded run's last version "
                      + opened.lastVersion()
                      + " (end.version / end.timestamp): that snapshot holds later changes."
                      + " Replay from a start whose history is still there, or end later"));
        }
        ChangePosition start = resnapshots.startOver(table, deltaTable, latest, e);
        // A replaced table (CREATE OR REPLACE) has another id from here on.
        position.startsOver(start, deltaTable.identity(latest));
        if (e.kind() == DeltaFeedException.Kind.TABLE_REPLACED) {
          notices.add(TableNotices.TABLE, "RECREATED", Map.of(), nowMs);
        }
        snapshotRows = 0;
        notices.add(
            TableNotices.INITIAL_SNAPSHOT,
            "STARTED",
            TableNotices.snapshotDetails(start.version(), null, 0),
            nowMs);
      } catch (DeltaFeedException resolveError) {
        return recover(resolveError, nowMs);
      }
      restartConverter();
      versionTransactions.clear();
      metrics.recordResnapshot();
      return null;
    }
    if (opener.discoveredAndGone(table)) {
      log.warn(
          "Table {} was found below a table root and its folder no longer holds a table: its"
              + " stream stops, its offsets stay, and the next rescan of the roots drops it ({})",
          table,
          redaction.redact(e.getMessage()));
      gone = true;
      idleUntilMs = Long.MAX_VALUE;
      notices.add(TableNotices.TABLE, "GONE", Map.of(), nowMs);
      return null;
    }
    throw e;
  }

  /**
   * Whether a signal can act on the stream now: it is open, its converter holds no row back, and it
   * stands at the start of a version or inside a snapshot (a snapshot may be paused or stopped
   * anywhere; its rows pair with none).
   */
  boolean atSignalPoint() {
    ChangePosition at = handedOverTo();
    return at != null
        && (at.inSnapshot()
            || (!inVersion && at.match(s -> false, v -> v.fileIndex() == 0 && v.nextRow() == 0)));
  }

  /**
   * Where the records handed to Connect end, when the converter holds back no update image: the
   * position read, or inside a snapshot the position before the snapshot row the envelope format
   * holds back. Null when the table is not open or an image waits for its partner.
   */
  private ChangePosition handedOverTo() {
    if (opened == null || !opened.converter().noImagesWaiting()) {
      return null;
    }
    ChangePosition held = opened.converter().heldSnapshotRow();
    return held != null ? held : position.read();
  }

  /**
   * Drops the snapshot row the converter holds back, if any, so that the stream stands where its
   * records end: the row is read again when the stream goes on.
   */
  private void dropHeldRow() {
    ChangePosition held = opened.converter().heldSnapshotRow();
    if (held != null) {
      closeFeed();
      position.readTo(held);
      position.convertedTo(held);
      restartConverter();
    }
  }

  /** Whether the stream is paused by a signal. */
  boolean paused() {
    return paused;
  }

  /**
   * Acts on {@code signal}, at a signal point ({@link #atSignalPoint}), and notifies whether it was
   * accepted or why not. Returns false when it cannot be decided now (the store is unreachable):
   * the signal then waits.
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
    dropHeldRow();
    position.signalled(position.signals().withNextSignal(signal.offset() + 1));
    Map<String, String> details = new LinkedHashMap<>();
    details.put("signal_id", signal.id());
    details.put("signal_type", signal.type());
    if (problem != null) {
      details.put("reason", problem);
      notices.add(TableNotices.SIGNAL, "REJECTED", details, nowMs);
      log.warn(
          "Signal {} ({}) for table {} is rejected: {}",
          signal.id(),
          signal.type(),
          partition.describe(),
          problem);
      return true;
    }
    notices.add(TableNotices.SIGNAL, "ACCEPTED", details, nowMs);
    log.info("Signal {} ({}) for table {} is accepted", signal.id(), signal.type(), table);
    perform(signal, nowMs);
    return true;
  }

  /** Why {@code signal} cannot act on the table now, or null when it can. */
  private String problemWith(Signal signal) {
    ChangePosition at = position.read();
    return switch (signal.action()) {
      case EXECUTE_SNAPSHOT -> {
        if (slice()) {
          yield "this is a slice of the table's initial snapshot; signal the table once its"
              + " snapshot is complete";
        }
        if (at.inSnapshot()) {
          yield "a snapshot of the table is in progress; send stop-snapshot first, or wait for"
              + " it to complete";
        }
        if (at.version() == 0) {
          yield "the stream has read no version yet, so it will send every row of the table"
              + " anyway";
        }
        String condition = signal.filters().get(table);
        LatestSnapshot latest = opened.table().latestSnapshot();
        if (condition != null) {
          try {
            opened
                .table()
                .narrowedTo(RowFilterParser.parse(condition))
                .requireRowFilterFits(latest);
          } catch (IllegalArgumentException e) {
            yield "its condition '" + condition + "' is not valid: " + e.getMessage();
          }
        }
        opened.table().checkStored(ChangePosition.InSnapshot.start(at.version() - 1), latest);
        yield null;
      }
      case STOP_SNAPSHOT ->
          slice()
              ? "a slice of the table's initial snapshot cannot be stopped"
              : at.inSnapshot() ? null : "no snapshot of the table is in progress";
      case PAUSE -> paused ? "the table is paused already" : null;
      case RESUME -> paused ? null : "the table is not paused";
    };
  }

  private void perform(Signal signal, long nowMs) {
    ChangePosition at = position.read();
    switch (signal.action()) {
      case EXECUTE_SNAPSHOT -> {
        // The snapshot of the version before the stream's position: the table as the records
        // sent so far left it. Changes go on after it, so each key keeps its order.
        ChangePosition start = ChangePosition.InSnapshot.start(at.version() - 1);
        startOver(start);
        String condition = signal.filters().getOrDefault(table, "");
        position.signalled(position.signals().withSnapshotFilter(condition));
        Map<String, String> details = TableNotices.snapshotDetails(start.version(), null, 0);
        details.put("signal_id", signal.id());
        if (!condition.isEmpty()) {
          details.put("condition", condition);
        }
        notices.add(TableNotices.SIGNALLED_SNAPSHOT, "STARTED", details, nowMs);
      }
      case STOP_SNAPSHOT -> {
        String kind = snapshotKind();
        Map<String, String> details =
            TableNotices.snapshotDetails(at.version(), null, snapshotRows);
        details.put("signal_id", signal.id());
        startOver(ChangePosition.InVersion.start(at.version() + 1));
        position.signalled(position.signals().withSnapshotFilter(null));
        notices.add(kind, "ABORTED", details, nowMs);
      }
      case PAUSE -> {
        paused = true;
        position.signalled(position.signals().withPaused(true));
        // A snapshot paused half way resumes in place: its rows so far are sent and settled.
        closeFeed();
        inVersion = false;
        notices.add(TableNotices.TABLE, "PAUSED", Map.of("signal_id", signal.id()), nowMs);
      }
      case RESUME -> {
        paused = false;
        position.signalled(position.signals().withPaused(false));
        idleUntilMs = 0;
        notices.add(TableNotices.TABLE, "RESUMED", Map.of("signal_id", signal.id()), nowMs);
      }
    }
  }

  /** The stream reads on from {@code start}, dropping what the feed and the converter held. */
  private void startOver(ChangePosition start) {
    closeFeed();
    position.startsOver(start, position.identity());
    restartConverter();
    versionTransactions.clear();
    snapshotRows = 0;
  }

  /**
   * The records of the notifications waiting for the notification topic. Each carries the table's
   * partition and its offset at the position read, so it stores that position as a heartbeat would;
   * none go out while the converter holds rows back or a version's changes are half read. A table
   * never opened has no offset to carry: its notifications carry none.
   */
  List<SourceRecord> noticeRecords(Notifier notifier, long nowMs) {
    if (!notices.waiting()) {
      return List.of();
    }
    if (opened == null) {
      return notices.take().stream().map(n -> notifier.record(n, null, null)).toList();
    }
    ChangePosition at = handedOverTo();
    if (at == null || (inVersion && !at.inSnapshot())) {
      return List.of();
    }
    Map<String, Object> offset = position.offsetOf(at);
    List<SourceRecord> records =
        notices.take().stream().map(n -> notifier.record(n, partition.toMap(), offset)).toList();
    position.sent(at, nowMs);
    return records;
  }

  /** The converter starts over at the position read, forgetting what it held back. */
  private void restartConverter() {
    opened.converter().restart();
    inVersion = false;
  }

  @Override
  public void close() {
    closeFeed();
    if (opened != null) {
      opened.table().close();
    }
    metrics.close();
  }

  private void closeFeed() {
    if (feed != null) {
      feed.close();
      feed = null;
      metrics.recordFeedClosed();
    }
  }
}
