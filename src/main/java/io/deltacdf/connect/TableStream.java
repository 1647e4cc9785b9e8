package io.deltacdf.connect;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.StartSpec;
import io.deltacdf.connect.offset.TablePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table read by a task: its feed, where it stands, its record converter, and when to look for
 * new commits after it has caught up.
 */
final class TableStream implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TableStream.class);
  private static final long MAX_BACKOFF_MS = 30_000;

  private final String table;
  private final TablePartition partition;
  private final DeltaTable deltaTable;
  private final RecordConverter converter;
  private final boolean resnapshotOnMissingHistory;
  private final TableMetrics metrics;
  private int transientFailures;
  private ChangePosition position;
  private DeltaChangeFeed feed;
  private long idleUntilMs;
  private FieldType.Struct schema;

  TableStream(
      String table,
      DeltaTable deltaTable,
      ChangePosition start,
      RecordConverter converter,
      boolean resnapshotOnMissingHistory,
      TableMetrics metrics) {
    this.table = table;
    this.partition = new TablePartition(table);
    this.deltaTable = deltaTable;
    this.position = start;
    this.converter = converter;
    this.resnapshotOnMissingHistory = resnapshotOnMissingHistory;
    this.metrics = metrics;
  }

  String table() {
    return table;
  }

  TablePartition partition() {
    return partition;
  }

  RecordConverter converter() {
    return converter;
  }

  boolean due(long nowMs) {
    return nowMs >= idleUntilMs;
  }

  long idleUntilMs() {
    return idleUntilMs;
  }

  /**
   * The next rows, or null when the table has caught up (then it rests until {@code idleUntil}).
   * After a failure the next call reopens the feed at the last delivered position.
   */
  ChangeBatch next(int maxRows, long nowMs, long pollIntervalMs) {
    try {
      if (feed == null) {
        feed = deltaTable.openFeed(position);
      }
      ChangeBatch batch = feed.next(maxRows);
      metrics.recordProgress(feed.position(), feed.progress());
      if (transientFailures > 0) {
        log.info("Table {} is readable again after {} failed attempts", table, transientFailures);
        transientFailures = 0;
      }
      if (batch == null) {
        idleUntilMs = nowMs + pollIntervalMs;
        return null;
      }
      metrics.recordBatch(batch);
      logSchemaChange(batch);
      position = batch.after();
      return batch;
    } catch (DeltaFeedException e) {
      // The next call reopens the feed at the last delivered position.
      closeFeed();
      if (e.kind() == DeltaFeedException.Kind.TRANSIENT) {
        backOff(e, nowMs);
        return null;
      }
      if (resnapshotOnMissingHistory && isHistoryLost(e)) {
        position = deltaTable.resolveStart(new StartSpec.Snapshot());
        converter.restartAt(position);
        metrics.recordResnapshot();
        log.warn(
            "{} on.history.missing=resnapshot: starting over from a snapshot at {}",
            e.getMessage(),
            position);
        return null;
      }
      throw e;
    }
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
   * Storage is unreachable for now: rest with a growing delay (1 s doubling to 30 s) and warn
   * once per outage, instead of failing the task or retrying in a tight loop.
   */
  private void backOff(DeltaFeedException e, long nowMs) {
    transientFailures++;
    long delayMs = Math.min(MAX_BACKOFF_MS, 1_000L << Math.min(transientFailures - 1, 5));
    idleUntilMs = nowMs + delayMs;
    if (transientFailures == 1) {
      log.warn("{}; retrying from the last delivered position with backoff", e.getMessage());
    }
  }

  private static boolean isHistoryLost(DeltaFeedException e) {
    return e.kind() == DeltaFeedException.Kind.HISTORY_MISSING
        || e.kind() == DeltaFeedException.Kind.TABLE_REPLACED;
  }

  @Override
  public void close() {
    closeFeed();
    deltaTable.close();
    metrics.close();
  }

  private void closeFeed() {
    if (feed != null) {
      feed.close();
      feed = null;
    }
  }
}
