package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;

/**
 * What Connect stores for one table: the offset the last record sent carries, the one the last
 * committed transaction stored (exactly-once), and where the current feed started. From these
 * follow the offset a heartbeat must store and the position an aborted transaction returns to.
 */
final class TableOffsets {

  /** The position the last record sent for this table carries (null: none stored yet). */
  private ChangePosition carried;

  /**
   * With exactly-once, the position the last committed transaction stored for this table (null:
   * none since the feed started at {@link #feedStart}).
   */
  private ChangePosition committed;

  /** Where the current feed started: the open's start, or a re-snapshot's. */
  private ChangePosition feedStart;

  /** Whether {@link #carried} was sent since the feed started (else it may predate it). */
  private boolean sentSinceFeedStart;

  private long lastSentMs;

  /**
   * @param stored the position Connect stored for this table, null when it has none
   */
  TableOffsets(ChangePosition stored) {
    this.carried = stored;
  }

  /**
   * The table was opened at {@code start}; {@code storedDoesNotApply} when not at the stored offset
   * (there was none, its history was cleaned up, or it belongs to another table): the start is then
   * stored at once, as for a table without an offset.
   */
  void opened(ChangePosition start, boolean storedDoesNotApply) {
    if (storedDoesNotApply) {
      carried = null;
    }
    feedStartsAt(start);
  }

  /**
   * The feed starts at {@code start} (the open's start, or a re-snapshot's): an aborted transaction
   * returns there until one commits, never to an offset stored before it, whose history may be
   * gone.
   */
  void feedStartsAt(ChangePosition start) {
    feedStart = start;
    committed = null;
    sentSinceFeedStart = false;
  }

  /** Notes the position the last record handed to Connect for this table carries. */
  void sent(ChangePosition offset, long nowMs) {
    carried = offset;
    sentSinceFeedStart = true;
    lastSentMs = nowMs;
  }

  /** Every record sent for this table so far is part of a committed transaction. */
  void transactionCommitted() {
    if (sentSinceFeedStart) {
      committed = carried;
    }
  }

  /**
   * The position the last committed transaction stored, or where the feed started when none did:
   * where an aborted transaction leaves the table.
   */
  ChangePosition lastCommitted() {
    return committed != null ? committed : feedStart;
  }

  /**
   * Whether a heartbeat must store {@code position}, which no record carries yet: at once when the
   * table has no stored offset (which pins where a {@code latest} or timestamp start resolved to),
   * otherwise at most once per {@code intervalMs}.
   */
  boolean heartbeatDue(ChangePosition position, long nowMs, long intervalMs) {
    if (position.equals(carried)) {
      return false;
    }
    return carried == null || nowMs - lastSentMs >= intervalMs;
  }
}
