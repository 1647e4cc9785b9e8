package io.deltacdf.connect.task;

import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;

/**
 * Where a task's exactly-once transactions end: after a version, once one holds
 * transaction.max.rows records, when every table has caught up, or by an abort. Without
 * exactly-once (no transaction context) it ends none.
 *
 * <p>Connect ends a transaction at a record of the current poll, or after the whole poll when asked
 * without one; it aborts at the end of the poll.
 */
final class TransactionBoundaries {

  private final TransactionContext context;
  private final int maxRows;
  private final List<TablePosition> positions;

  /** Records handed to Connect since the open transaction began. */
  private int records;

  /** Whether this poll aborted the open transaction. */
  private boolean abortedThisPoll;

  /**
   * @param context Connect's transaction context, null without exactly-once
   * @param positions the task's tables, told when their records are committed
   */
  TransactionBoundaries(TransactionContext context, int maxRows, List<TablePosition> positions) {
    this.context = context;
    this.maxRows = maxRows;
    this.positions = positions;
  }

  /** Whether the task runs with exactly-once, so that there are transactions to end. */
  boolean enabled() {
    return context != null;
  }

  void pollStarts() {
    abortedThisPoll = false;
  }

  boolean abortedThisPoll() {
    return abortedThisPoll;
  }

  /** {@code count} records joined the open transaction. */
  void added(int count) {
    records += count;
  }

  /** Whether the open transaction holds records. */
  boolean open() {
    return enabled() && records > 0;
  }

  /** Whether the open transaction holds transaction.max.rows records or more. */
  boolean full() {
    return enabled() && records >= maxRows;
  }

  /**
   * Commits the open transaction after this poll's latest record, or, when this poll has none yet
   * (its records went out in earlier polls), after the whole poll; returns true in that case, as
   * the poll must then end here.
   */
  boolean commit(List<SourceRecord> pollRecords) {
    records = 0;
    positions.forEach(TablePosition::transactionCommitted);
    if (pollRecords.isEmpty()) {
      context.commitTransaction();
      return true;
    }
    context.commitTransaction(pollRecords.get(pollRecords.size() - 1));
    return false;
  }

  /** Aborts the open transaction at the end of this poll. */
  void abort() {
    context.abortTransaction();
    abortedThisPoll = true;
    records = 0;
  }
}
