package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.convert.Converted;
import io.deltacdf.connect.convert.HeartbeatRecords;
import io.deltacdf.connect.delta.DeltaFeedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a task does each poll: reads the change feeds of its tables and hands their rows to Connect,
 * with heartbeats and, under exactly-once, transaction boundaries.
 *
 * <p>The loop is synchronous: {@code poll()} reads up to {@code batch.max.rows} rows and returns
 * them, or waits at most {@link #MAX_IDLE_WAIT_MS} and returns null when every table has caught up.
 * A task stays on one table until that table's current version is complete, then moves to the next,
 * so that a version never shares a transaction boundary with half of another table's version.
 */
public final class TaskLoop {

  private static final Logger log = LoggerFactory.getLogger(TaskLoop.class);

  /** The longest {@code poll()} blocks when there is nothing to read. */
  static final long MAX_IDLE_WAIT_MS = 100;

  private final Object lock = new Object();
  private boolean stopped;
  private final DeltaCdfSourceConfig config;
  private final List<TableStream> streams;
  private int current;
  private final TransactionContext transactions;

  /** Records sent since the open transaction began (exactly-once only). */
  private int recordsInTransaction;

  /** Exactly-once: whether this poll aborted the open transaction. */
  private boolean abortedThisPoll;

  private final HeartbeatRecords heartbeats;
  private final long heartbeatIntervalMs;
  private final TopicDeliveries deliveries;
  private final ErrorSettings errorSettings;
  private final Redaction redaction;

  /**
   * The loop over the tables of a task's settings, each resuming from the offset Connect stored for
   * it; the tables themselves are opened by their first read.
   */
  public TaskLoop(Map<String, String> settings, SourceTaskContext context, String version) {
    config = new DeltaCdfSourceConfig(settings);
    config.requireTlsToStores();
    errorSettings = new ErrorSettings(config);
    redaction = new Redaction(config);
    String connectorName = settings.getOrDefault("name", "delta-cdf");
    transactions = context.transactionContext();
    heartbeatIntervalMs = config.heartbeatInterval().toMillis();
    String heartbeatTopic = config.heartbeatTopic(connectorName);
    heartbeats =
        new HeartbeatRecords(
            heartbeatTopic, config.recordSettings(connectorName, version).outputFormat());
    deliveries = new TopicDeliveries(heartbeatTopic);
    streams =
        TaskStreams.of(config, connectorName, version, redaction, context.offsetStorageReader());
    deliveries.start();
  }

  /**
   * Up to batch.max.rows records, or null after a wait of at most {@link #MAX_IDLE_WAIT_MS} when
   * every table has caught up or backs off.
   */
  public List<SourceRecord> poll() throws InterruptedException {
    synchronized (lock) {
      if (stopped) {
        return null;
      }
      long now = System.currentTimeMillis();
      abortedThisPoll = false;
      List<SourceRecord> records = read(now);
      addHeartbeats(records, now);
      if (!records.isEmpty()) {
        deliveries.handedOver(records, now);
        return records;
      }
      if (transactions != null && recordsInTransaction > 0 && versionsComplete()) {
        // Every table has caught up (or backs off) between versions: close what is open rather
        // than leave it hanging.
        commitTransaction(null);
      }
    }
    Thread.sleep(
        Math.max(0, Math.min(MAX_IDLE_WAIT_MS, earliestDue() - System.currentTimeMillis())));
    return null;
  }

  /**
   * Reads up to batch.max.rows records, staying on a table until its version is complete. With
   * exactly-once, a table whose version is half read and that must wait (storage backs off) gives
   * up its open transaction (see {@link #abortTransaction}), so that the transaction takes no other
   * table's rows and does not outlive the producer's transaction timeout.
   */
  private List<SourceRecord> read(long now) {
    int maxRows = config.batchMaxRows();
    long pollIntervalMs = config.pollInterval().toMillis();
    List<SourceRecord> records = new ArrayList<>();
    int tried = 0;
    while (records.size() < maxRows && tried < streams.size()) {
      TableStream stream = streams.get(current);
      ChangeBatch batch;
      try {
        batch = stream.due(now) ? stream.next(maxRows - records.size(), now, pollIntervalMs) : null;
      } catch (DeltaFeedException e) {
        throw failure(stream.table(), e);
      }
      if (batch == null) {
        if (transactions != null && stream.inVersion()) {
          abortTransaction(stream, records, now);
          break;
        }
        nextTable();
        tried++;
        continue;
      }
      if (batch.rows().isEmpty() && !batch.endsVersion()) {
        break; // out of time while passing over versions without rows: go on next poll
      }
      tried = 0;
      if (add(stream, batch, records, now)) {
        break;
      }
      if (batch.endsVersion()) {
        nextTable();
      }
    }
    return records;
  }

  /** The exception a task fails with: secrets removed, the store setting at fault named. */
  private ConnectException failure(String table, DeltaFeedException error) {
    String setting = errorSettings.storeSetting(error, table);
    if (setting != null) {
      error =
          new DeltaFeedException(
              error.kind(), error.getMessage() + " (setting: " + setting + ")", error.getCause());
    }
    return redaction.toConnectException(error);
  }

  /**
   * Converts the batch and ends transactions where they must end: at the end of a version, or once
   * one holds transaction.max.rows records, but only where no update image waits for its partner,
   * so that the stored offset is exactly the position after the last record. Returns true when this
   * poll must end here: a transaction had to end before any record of this poll, and Connect can
   * end it only after the whole poll.
   */
  private boolean add(TableStream stream, ChangeBatch batch, List<SourceRecord> records, long now) {
    ChangePosition lastOffset = null;
    boolean endPoll = false;
    for (ChangeRow row : batch.rows()) {
      Converted converted = convert(stream, row, batch);
      lastOffset = add(converted, lastOffset, records);
      if (transactions != null
          && recordsInTransaction >= config.transactionMaxRows()
          && stream.noImagesWaiting()) {
        noteSent(stream, lastOffset, now);
        endPoll = commitTransaction(records);
      }
    }
    if (batch.endsVersion()) {
      lastOffset = add(stream.endVersion(), lastOffset, records);
      if (transactions != null && recordsInTransaction > 0) {
        noteSent(stream, lastOffset, now);
        endPoll = commitTransaction(records);
      }
    }
    noteSent(stream, lastOffset, now);
    return endPoll;
  }

  /** Adds {@code converted} to the poll's records; returns the offset this poll's last carries. */
  private ChangePosition add(
      Converted converted, ChangePosition lastOffset, List<SourceRecord> records) {
    records.addAll(converted.records());
    recordsInTransaction += converted.records().size();
    return converted.isEmpty() ? lastOffset : converted.lastOffset();
  }

  /** Tells the stream the position of its last record in this poll, if it has one. */
  private static void noteSent(TableStream stream, ChangePosition lastOffset, long now) {
    if (lastOffset != null) {
      stream.sent(lastOffset, now);
    }
  }

  /**
   * A table backs off in the middle of a version, with exactly-once. Its open transaction cannot
   * wait for the store: the producer's transaction.timeout.ms would end it and fail the task. So
   * the transaction is aborted, and the table goes back to where it began, which a heartbeat stores
   * (Connect stores the offsets of an aborted transaction's records, and the heartbeat is the last
   * of them); the table reads the rest of that version again once its store is back.
   */
  private void abortTransaction(TableStream stream, List<SourceRecord> records, long now) {
    ChangePosition start = stream.returnToLastCommit();
    SourceRecord heartbeat = heartbeat(stream, start, now);
    records.add(heartbeat);
    stream.sent(start, now);
    transactions.abortTransaction();
    abortedThisPoll = true;
    recordsInTransaction = 0;
    log.info(
        "Table {} backs off in the middle of a version: its open transaction is aborted and the"
            + " table reads again from {} once its store is back",
        stream.table(),
        start);
  }

  private Converted convert(TableStream stream, ChangeRow row, ChangeBatch batch) {
    try {
      return stream.convert(row, batch.schema());
    } catch (RuntimeException e) {
      throw new ConnectException(
          redaction.redact(
              "Table " + stream.table() + " version " + row.version() + ": " + e.getMessage()),
          e);
    }
  }

  /**
   * Heartbeats for the tables whose position moved without a record (see {@link
   * TableStream#heartbeatPosition}). With exactly-once they are sent only between versions and end
   * the transaction, so that one never holds part of a version and a heartbeat. A snapshot slice
   * stores its position at once, whatever heartbeat.interval.ms says: the connector waits for every
   * slice to store the position after the snapshot, also one whose last files had no rows.
   *
   * <p>None are sent in a poll that aborted the open transaction: Connect aborts at the end of the
   * poll, but a commit asked for at a heartbeat would first commit that transaction, with the
   * half-read version the abort is meant to drop. They go out with the next poll.
   */
  private void addHeartbeats(List<SourceRecord> records, long now) {
    if (transactions != null && (abortedThisPoll || !versionsComplete())) {
      return;
    }
    int before = records.size();
    for (TableStream stream : streams) {
      if (heartbeatIntervalMs == 0 && !stream.slice()) {
        continue;
      }
      long interval = stream.slice() ? 0 : heartbeatIntervalMs;
      ChangePosition position = stream.heartbeatPosition(now, interval);
      if (position != null) {
        SourceRecord heartbeat = heartbeat(stream, position, now);
        records.add(heartbeat);
        stream.sent(position, now);
      }
    }
    if (transactions != null && records.size() > before) {
      recordsInTransaction += records.size() - before;
      commitTransaction(records);
    }
  }

  private SourceRecord heartbeat(TableStream stream, ChangePosition position, long now) {
    return heartbeats.heartbeat(
        stream.table(), stream.partition().toMap(), position, stream.offsetOf(position), now);
  }

  /**
   * Connect acknowledged {@code record}: stored in Kafka when {@code metadata} is given, else
   * filtered out or dropped. Called from the producer's thread.
   */
  public void acknowledged(SourceRecord record, RecordMetadata metadata) {
    deliveries.acknowledged(record, metadata);
  }

  /** Whether no table has a version half read. */
  private boolean versionsComplete() {
    return streams.stream().noneMatch(TableStream::inVersion);
  }

  /**
   * Commits the open transaction after this poll's latest record, or, when this poll has none yet
   * (its records went out in earlier polls), after the whole poll; returns true in that case, as
   * the poll must then end here.
   */
  private boolean commitTransaction(List<SourceRecord> records) {
    recordsInTransaction = 0;
    streams.forEach(TableStream::transactionCommitted);
    if (records == null || records.isEmpty()) {
      transactions.commitTransaction();
      return true;
    }
    transactions.commitTransaction(records.get(records.size() - 1));
    return false;
  }

  private void nextTable() {
    current = (current + 1) % streams.size();
  }

  private long earliestDue() {
    // A task whose only slices were left to another cut has no stream: it waits as long as any.
    return streams.stream().mapToLong(TableStream::idleUntilMs).min().orElse(Long.MAX_VALUE);
  }

  /**
   * Called from another thread than {@code poll()}: waits for a running read to finish (reads are
   * bounded by batch.max.rows and, over versions without rows, by time) so that no file is closed
   * under it.
   */
  public void stop() {
    synchronized (lock) {
      stopped = true;
      deliveries.close();
      streams.forEach(TableStream::close);
    }
  }
}
