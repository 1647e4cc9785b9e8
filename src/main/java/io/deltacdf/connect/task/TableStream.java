package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.convert.Converted;
import io.deltacdf.connect.convert.HeartbeatRecords;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.TablePartition;
import java.util.List;
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
      VersionTransactions versionTransactions) {
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

  boolean due(long nowMs) {
    return nowMs >= idleUntilMs;
  }

  long idleUntilMs() {
    return idleUntilMs;
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
      }
      if (feed == null) {
        SnapshotSlice slice = slice() ? partition.slice() : SnapshotSlice.WHOLE;
        feed = opened.table().openFeed(position.read(), slice, opened.lastVersion());
      }
      ChangeBatch batch = feed.next(maxRows);
      position.readTo(feed.position());
      position.follow(feed.tableId());
      metrics.recordProgress(feed.progress());
      backoff.succeeded();
      if (batch == null) {
        idleUntilMs = feed.ended() && !slice() ? endReached() : nowMs + pollIntervalMs;
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
   * A bounded run has read the table's last version: the stream reads no more, while heartbeats
   * still store its final position, so a restart resumes there and is done at once.
   */
  private long endReached() {
    log.info(
        "Table {} is done: the bounded run read it up to and including version {}, and reads no"
            + " more (end.version / end.timestamp)",
        table,
        opened.lastVersion());
    metrics.recordEndReached();
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
      return null;
    }
    throw e;
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
