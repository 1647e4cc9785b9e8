package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.RowFilterParser;
import io.deltacdf.connect.convert.HeartbeatRecords;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.offset.TablePartition;
import java.util.List;
import java.util.Map;
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

  private final TableMetrics metrics;

  /** BEGIN and END around each version's records, with provide.transaction.metadata=true. */
  private final VersionTransactions versionTransactions;

  /** Backs off, starts over or stops when the feed fails. */
  private final FeedRecovery recovery;

  private final SchemaChanges schemaChanges;
  private final TableNotices notices;
  private final SnapshotNotices snapshots;

  /** What signals do to the stream. */
  private final TableSteering steering;

  /** Turns batches into records. */
  private final BatchRecords records;

  /** Whether the feed reads a signalled snapshot's condition alone, and ends with it. */
  private boolean conditionFeed;

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
    this.metrics = metrics;
    this.versionTransactions = versionTransactions;
    this.schemaChanges = new SchemaChanges(table);
    this.notices = notices;
    this.snapshots = new SnapshotNotices(notices, position);
    this.steering = new TableSteering(this, position, notices, snapshots, redaction);
    this.records = new BatchRecords(table, position, versionTransactions, redaction);
    this.recovery =
        new FeedRecovery(
            table, position, opener, resnapshots, redaction, metrics, notices, snapshots);
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
    return (!steering.paused() || opened == null) && nowMs >= idleUntilMs;
  }

  long idleUntilMs() {
    return steering.paused() && opened != null ? Long.MAX_VALUE : idleUntilMs;
  }

  TableSteering steering() {
    return steering;
  }

  /** How logs name the stream: the table, and the slice when it is one. */
  String describe() {
    return partition.describe();
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
        snapshots.opened(opened.kind(), opened.start(), nowMs);
      }
      if (steering.paused()) {
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
      recovery.succeeded();
      if (wasInSnapshot) {
        snapshots.read(batch, feed.progress(), nowMs);
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
      switch (recovery.recover(e, opened, slice(), nowMs)) {
        case BACKED_OFF -> idleUntilMs = recovery.retryAtMs();
        case STARTED_OVER -> {
          restartConverter();
          versionTransactions.clear();
        }
        case GONE -> {
          gone = true;
          idleUntilMs = Long.MAX_VALUE;
        }
      }
      return null;
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
   * Adds the records of {@code batch} to the poll's {@code out} (see {@link BatchRecords#emit}).
   */
  boolean emit(
      ChangeBatch batch, TransactionBoundaries transactions, List<SourceRecord> out, long nowMs) {
    return records.emit(batch, opened.converter(), feed.operation(), transactions, out, nowMs);
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
   * Where the records handed to Connect end, when the converter holds back no update image: the
   * position read, or inside a snapshot the position before the snapshot row the envelope format
   * holds back. Null when the table is not open or an image waits for its partner.
   */
  ChangePosition handedOverTo() {
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
  void dropHeldRow() {
    ChangePosition held = opened.converter().heldSnapshotRow();
    if (held != null) {
      closeFeed();
      position.readTo(held);
      position.convertedTo(held);
      restartConverter();
    }
  }

  /** The open table. */
  DeltaTable deltaTable() {
    return opened.table();
  }

  /** The stream reads on from {@code start}, dropping what the feed and the converter held. */
  void startOver(ChangePosition start) {
    closeFeed();
    position.startsOver(start, position.identity());
    restartConverter();
    versionTransactions.clear();
  }

  /** The stream stops reading where it stands (a pause), between versions or in a snapshot. */
  void stopReading() {
    closeFeed();
    inVersion = false;
  }

  /** The stream is read again from its next poll on (a resume). */
  void wake() {
    idleUntilMs = 0;
  }

  /** Whether the table has been opened. */
  boolean isOpen() {
    return opened != null;
  }

  TablePartition partition() {
    return partition;
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
