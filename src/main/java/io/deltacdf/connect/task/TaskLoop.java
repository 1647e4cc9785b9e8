package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.convert.HeartbeatRecords;
import io.deltacdf.connect.delta.DeltaFeedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;

/**
 * What a task does each poll: reads the change feeds of its tables in turn and hands their records
 * to Connect, with heartbeats and, under exactly-once, transaction boundaries.
 *
 * <p>The loop is synchronous: {@code poll()} reads up to {@code batch.max.rows} rows and returns
 * them, or waits at most {@link #MAX_IDLE_WAIT_MS} and returns null when every table has caught up.
 * A task stays on one table until that table's current version is complete, then moves to the next,
 * so that a version never shares a transaction boundary with half of another table's version.
 */
public final class TaskLoop {

  /** The longest {@code poll()} blocks when there is nothing to read. */
  static final long MAX_IDLE_WAIT_MS = 100;

  private final Object lock = new Object();
  private boolean stopped;
  private final int batchMaxRows;
  private final long pollIntervalMs;
  private final List<TableStream> streams;
  private int current;
  private final TransactionBoundaries transactions;
  private final Heartbeats heartbeats;
  private final TopicDeliveries deliveries;
  private final TopicCheck topicCheck;
  private final ErrorSettings errorSettings;
  private final Redaction redaction;
  private final RecordRateLimit rateLimit;
  private final Notifier notifier;
  private final TaskSignals signals;

  /**
   * The loop over the tables of a task's settings, each resuming from the offset Connect stored for
   * it; the tables themselves are opened by their first read.
   */
  public TaskLoop(Map<String, String> settings, SourceTaskContext context, String version) {
    DeltaCdfSourceConfig config = new DeltaCdfSourceConfig(settings);
    config.stores().requireTlsToStores();
    redaction = new Redaction(config);
    errorSettings = new ErrorSettings(config);
    batchMaxRows = config.batchMaxRows();
    pollIntervalMs = config.pollInterval().toMillis();
    rateLimit = RecordRateLimit.perSecond(config.maxRowsPerSecond());
    String connectorName = settings.getOrDefault("name", "delta-cdf");
    String heartbeatTopic = config.heartbeatTopic(connectorName);
    heartbeats =
        new Heartbeats(
            new HeartbeatRecords(
                heartbeatTopic, config.recordSettings(connectorName, version).outputFormat()),
            config.heartbeatInterval().toMillis());
    MissingTopics topics =
        new MissingTopics(
            heartbeatTopic,
            config.provideTransactionMetadata() ? config.transactionTopic(connectorName) : null);
    deliveries = new TopicDeliveries(topics);
    notifier =
        Notifier.of(
            config,
            connectorName,
            config.recordSettings(connectorName, version).outputFormat(),
            TaskSettings.index(settings));
    streams =
        TaskStreams.of(
            config, connectorName, version, redaction, context.offsetStorageReader(), notifier);
    signals =
        TaskSignals.of(config, connectorName, streams, TaskSettings.allTables(settings), notifier);
    transactions =
        new TransactionBoundaries(
            context.transactionContext(),
            config.transactionMaxRows(),
            streams.stream().map(TableStream::position).toList());
    topicCheck = TopicCheck.of(config, settings, topics);
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
      transactions.pollStarts();
      List<SourceRecord> records = read(now);
      steer(records, now);
      addHeartbeats(records, now);
      if (!records.isEmpty()) {
        topicCheck.requireTopicsOf(records);
        deliveries.handedOver(records, now);
        return records;
      }
      if (transactions.open() && versionsComplete()) {
        // Every table has caught up (or backs off) between versions: close what is open rather
        // than leave it hanging.
        transactions.commit(records);
      }
    }
    // At its rate limit a task waits for its next chunk, however due its tables are.
    long waitMs = Math.max(earliestDue() - System.currentTimeMillis(), rateLimit.waitMs());
    Thread.sleep(Math.max(0, Math.min(MAX_IDLE_WAIT_MS, waitMs)));
    return null;
  }

  /**
   * Reads up to batch.max.rows records, staying on a table until its version is complete. With
   * exactly-once, a table whose version is half read and that must wait (storage backs off) gives
   * up its open transaction (see {@link #abortTransaction}), so that the transaction takes no other
   * table's rows and does not outlive the producer's transaction timeout.
   *
   * <p>At the rate limit (max.rows.per.second) the read stops where it is, even in the middle of a
   * version: the version's transaction stays open, and the next polls go on with the same table.
   */
  private List<SourceRecord> read(long now) {
    List<SourceRecord> records = new ArrayList<>();
    int tried = 0;
    while (records.size() < batchMaxRows && tried < streams.size()) {
      int room = Math.min(batchMaxRows - records.size(), rateLimit.allowance());
      if (room == 0) {
        break;
      }
      TableStream stream = streams.get(current);
      ChangeBatch batch;
      try {
        batch = stream.due(now) ? stream.next(room, now, pollIntervalMs) : null;
      } catch (DeltaFeedException e) {
        throw errorSettings.taskFailure(stream.table(), e, redaction);
      }
      if (batch == null) {
        if (transactions.enabled() && stream.inVersion()) {
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
      int before = records.size();
      boolean endPoll = stream.emit(batch, transactions, records, now);
      rateLimit.spent(records.size() - before);
      if (endPoll) {
        break;
      }
      if (batch.endsVersion()) {
        nextTable();
      }
    }
    return records;
  }

  /**
   * A table backs off in the middle of a version, with exactly-once. Its open transaction cannot
   * wait for the store: the producer's transaction.timeout.ms would end it and fail the task. So
   * the transaction is aborted, and the table goes back to where it began, which a heartbeat stores
   * (Connect stores the offsets of an aborted transaction's records, and the heartbeat is the last
   * of them); the table reads the rest of that version again once its store is back.
   */
  private void abortTransaction(TableStream stream, List<SourceRecord> records, long now) {
    records.add(stream.returnToLastCommit(heartbeats.records(), now));
    transactions.abort();
  }

  /**
   * Heartbeats for the tables whose position moved without a record (see {@link Heartbeats}). With
   * exactly-once they are sent only between versions and end the transaction, so that one never
   * holds part of a version and a heartbeat.
   *
   * <p>None are sent in a poll that aborted the open transaction: Connect aborts at the end of the
   * poll, but a commit asked for at a heartbeat would first commit that transaction, with the
   * half-read version the abort is meant to drop. They go out with the next poll.
   */
  private void addHeartbeats(List<SourceRecord> records, long now) {
    if (transactions.enabled() && (transactions.abortedThisPoll() || !versionsComplete())) {
      return;
    }
    int added = heartbeats.addDue(streams, records, now);
    if (transactions.enabled() && added > 0) {
      transactions.added(added);
      transactions.commit(records);
    }
  }

  /**
   * Reads the signals sent since the last look, acts on those the tables can take now, and adds the
   * notifications waiting for the notification topic; each table's carry its offset. With
   * exactly-once this happens only where no other table has a version half read, and the
   * transaction ends after them, as after heartbeats.
   */
  private void steer(List<SourceRecord> records, long now) {
    signals.read(now);
    if (transactions.enabled() && transactions.abortedThisPoll()) {
      return;
    }
    int before = records.size();
    for (TableStream stream : streams) {
      if (transactions.enabled() && anotherInVersion(stream)) {
        continue;
      }
      signals.act(stream, now);
      records.addAll(stream.steering().noticeRecords(notifier, now));
    }
    records.addAll(signals.taskNoticeRecords());
    int added = records.size() - before;
    if (transactions.enabled() && added > 0) {
      transactions.added(added);
      transactions.commit(records);
    }
  }

  private boolean anotherInVersion(TableStream stream) {
    return streams.stream().anyMatch(other -> other != stream && other.inVersion());
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
      topicCheck.close();
      streams.forEach(TableStream::close);
      signals.close();
      notifier.close();
    }
  }
}
