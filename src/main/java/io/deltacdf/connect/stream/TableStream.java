package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.HiddenColumnsTracker;
import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.convert.Converted;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table read by a task: its feed, where it stands, its record converter, and when to look for
 * new commits after it has caught up. It is the one owner of the table's position: where reading
 * continues, where the rows handed to the converter end, and (through {@link TableOffsets}) what
 * Connect stored.
 *
 * <p>The table is opened by the first read, not when the task starts, so that a store that is
 * unreachable while the task starts is retried with backoff like any later read.
 */
final class TableStream implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TableStream.class);
  private static final long MAX_BACKOFF_MS = 30_000;

  /** How an opened table's start was found. */
  enum StartKind {
    /** At the stored offset. */
    RESUMED,
    /** Where the connector planned it, or start.mode: nothing was stored. */
    CONFIGURED,
    /** From a snapshot, as the stored offset's history is gone (on.history.missing=resnapshot). */
    RESNAPSHOT,
    /** By start.mode, as the stored offset belongs to another table that had the path or name. */
    ANOTHER_TABLE
  }

  /**
   * An opened table, which table it is, the position its feed starts at, how that was found, and
   * the converter of its rows.
   *
   * @param hidden the columns the stream's rules hid so far, growing as it reads: stored beside its
   *     position, so that a restart seeds the rules with them
   */
  record Opened(
      DeltaTable table,
      TableIdentity identity,
      ChangePosition start,
      StartKind kind,
      RecordConverter converter,
      HiddenColumnsTracker hidden) {}

  private final String table;

  /** The table's partition, or its snapshot slice's. */
  private final TablePartition partition;

  /** Opens the table by the first read. */
  private final TableOpener opener;

  /** Starts the table over from a snapshot when it must. */
  private final Resnapshots resnapshots;

  private final Redaction redaction;
  private final TableMetrics metrics;
  private int transientFailures;
  private Opened opened;

  /** Where reading continues: every row before it has been read from the feed. */
  private ChangePosition position;

  /** Where the rows handed to the converter end: the last one's after, or the feed's start. */
  private ChangePosition converted;

  private final TableOffsets offsets;

  /** What Connect stored for this partition when the task started; null when nothing. */
  private final StoredOffset stored;

  /** Where the connector told the task to start this partition; null: start.mode. */
  private final ChangePosition planned;

  /** Which table the rows read belong to, known once the table is open. */
  private TableIdentity identity;

  private DeltaChangeFeed feed;
  private long idleUntilMs;
  private FieldType.Struct schema;

  /** Whether rows of a version have been read whose end has not been read yet. */
  private boolean inVersion;

  /** A table found below a root whose folder is gone: read no more until a rescan drops it. */
  private boolean gone;

  /**
   * @param unit the table or snapshot slice read
   * @param stored what Connect stored for its partition, null when it has none
   */
  TableStream(
      TaskUnit unit,
      StoredOffset stored,
      TableOpener opener,
      Resnapshots resnapshots,
      Redaction redaction,
      TableMetrics metrics) {
    this.table = unit.table();
    this.partition = unit.partition();
    this.opener = opener;
    this.resnapshots = resnapshots;
    this.redaction = redaction;
    this.stored = stored;
    this.planned = unit.start();
    this.offsets = new TableOffsets(stored == null ? null : stored.position());
    this.metrics = metrics;
  }

  String table() {
    return table;
  }

  TablePartition partition() {
    return partition;
  }

  /**
   * The offset that stores {@code position} of the open table: with the table's identity and the
   * columns its rules hid so far, as its change records' offsets carry them.
   */
  Map<String, Object> offsetOf(ChangePosition position) {
    return OffsetCodec.toMap(position, identity, OffsetCodec.hiddenText(opened.hidden().current()));
  }

  /** Whether this stream reads a slice of a snapshot, not a whole table. */
  boolean slice() {
    return partition.slice() != null;
  }

  /** The records of the next row read from the feed, which starts where the last one ended. */
  Converted convert(ChangeRow row, FieldType.Struct schema) {
    Converted records = opened.converter().convert(row, converted, schema);
    converted = row.after();
    return records;
  }

  /** The records the end of the version (or snapshot) just read releases. */
  Converted endVersion() {
    return opened.converter().endVersion(converted);
  }

  /** Whether no update image waits for its partner, so records carry the rows' own positions. */
  boolean noImagesWaiting() {
    return opened.converter().noImagesWaiting();
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
        opened = opener.open(partition, stored, planned);
        identity = opened.identity();
        position = opened.start();
        converted = position;
        offsets.opened(position, opened.kind() != StartKind.RESUMED);
        switch (opened.kind()) {
          case RESNAPSHOT -> metrics.recordResnapshot();
          case ANOTHER_TABLE -> metrics.recordAnotherTable();
          default -> {}
        }
      }
      if (feed == null) {
        feed =
            partition.slice() == null
                ? opened.table().openFeed(position)
                : opened.table().openFeed(position, partition.slice());
      }
      ChangeBatch batch = feed.next(maxRows);
      position = feed.position();
      followReplacement(feed.tableId());
      metrics.recordProgress(position, feed.progress());
      if (transientFailures > 0) {
        log.info("Table {} is readable again after {} failed attempts", table, transientFailures);
        transientFailures = 0;
      }
      if (batch == null) {
        idleUntilMs = nowMs + pollIntervalMs;
        return null;
      }
      if (!batch.rows().isEmpty()) {
        metrics.recordBatch(batch);
        logSchemaChange(batch);
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
   * Backs off from a transient failure, starts over from a snapshot, stops a discovered table whose
   * folder is gone (the task goes on with its other tables), or fails.
   */
  private ChangeBatch recover(DeltaFeedException e, long nowMs) {
    if (e.kind() == DeltaFeedException.Kind.TRANSIENT) {
      backOff(e, nowMs);
      return null;
    }
    if (opened != null && !slice() && resnapshots.apply(e)) {
      try {
        DeltaTable deltaTable = opened.table();
        LatestSnapshot latest = deltaTable.latestSnapshot();
        position = resnapshots.startOver(table, deltaTable, latest, e);
        // A replaced table (CREATE OR REPLACE) has another id from here on.
        identity = deltaTable.identity(latest);
      } catch (DeltaFeedException resolveError) {
        return recover(resolveError, nowMs);
      }
      opened.converter().belongsTo(identity);
      restartConverter();
      offsets.feedStartsAt(position);
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

  /**
   * The position a heartbeat may store now, or null when it would store nothing new: the table is
   * not open yet, a version is half read, the converter holds rows back, or no heartbeat is due
   * (see {@link TableOffsets#heartbeatDue}).
   */
  ChangePosition heartbeatPosition(long nowMs, long intervalMs) {
    if (opened == null || inVersion || !opened.converter().settled()) {
      return null;
    }
    return offsets.heartbeatDue(position, nowMs, intervalMs) ? position : null;
  }

  /** Every record sent for this table so far is part of a committed transaction. */
  void transactionCommitted() {
    offsets.transactionCommitted();
  }

  /**
   * Goes back to the position the last committed transaction stored (or, when none was, to where
   * the feed started), dropping what was read since: the open transaction is being aborted. Returns
   * that position. Any backoff in progress goes on.
   */
  ChangePosition returnToLastCommit() {
    closeFeed();
    position = offsets.lastCommitted();
    restartConverter();
    return position;
  }

  /**
   * A table replaced in place streams on under a new Delta id: the offsets of its rows name that id
   * from the replacing version on.
   */
  private void followReplacement(String tableId) {
    if (tableId != null && !tableId.equals(identity.deltaTableId())) {
      identity = new TableIdentity(tableId, identity.catalogTableId());
      opened.converter().belongsTo(identity);
    }
  }

  /** The converter starts over at {@link #position}, forgetting what it held back. */
  private void restartConverter() {
    opened.converter().restart();
    converted = position;
    inVersion = false;
  }

  /** Notes the position the last record handed to Connect for this table carries. */
  void sent(ChangePosition offset, long nowMs) {
    offsets.sent(offset, nowMs);
  }

  /**
   * Logs, once, each schema change the feed crosses, with the first version read under the new
   * schema (the change itself may be a metadata-only commit before it, which yields no rows).
   */
  private void logSchemaChange(ChangeBatch batch) {
    if (schema != null && !schema.equals(batch.schema())) {
      log.info(
          "Table {} has a new schema from version {} on: {}",
          table,
          batch.rows().get(0).version(),
          SchemaChanges.describe(schema, batch.schema()));
    }
    schema = batch.schema();
  }

  /**
   * Storage is unreachable for now: rest with a growing delay (1 s doubling to 30 s) and warn once
   * per outage, instead of failing the task or retrying in a tight loop.
   */
  private void backOff(DeltaFeedException e, long nowMs) {
    transientFailures++;
    long delayMs = Math.min(MAX_BACKOFF_MS, 1_000L << Math.min(transientFailures - 1, 5));
    idleUntilMs = nowMs + delayMs;
    if (transientFailures == 1) {
      log.warn(
          "{}; retrying from the last position read with backoff",
          redaction.redact(e.getMessage()));
    }
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
    }
  }
}
