package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.HiddenColumnsTracker;
import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.SignalState;
import io.deltacdf.connect.offset.StoredOffset;
import java.util.Map;

/**
 * Where one table (or snapshot slice) stands in a task, and the one place that knows it: what
 * Connect stored when the task started, where reading goes on, where the rows handed to the
 * converter end, what the last record handed to Connect carries, and, with exactly-once, what the
 * last committed transaction stored. It also writes the offsets its records and heartbeats carry,
 * with the table's identity and the columns its rules hid, so that a restart knows both.
 *
 * <p>Written only from the task's thread; {@link #read()} is also read by the metrics' thread.
 */
final class TablePosition {

  /** What Connect stored for the partition when the task started, decoded once; null: nothing. */
  private final StoredOffset stored;

  /** Where the connector told the task to start the partition; null: start.mode decides. */
  private final ChangePosition planned;

  /** Where other shard counts stood, which the partition takes over from; null: none. */
  private final HandOver handOver;

  /** {@link #handOver} as offsets carry it until the position passes its end. */
  private final String handOverText;

  /** The columns the stream's rules hid so far: those of the stored offset, and growing. */
  private final HiddenColumnsTracker hidden;

  /** Which table the rows read belong to, known once the table is open. */
  private TableIdentity identity;

  /** Where reading goes on: every row before it has been read from the feed. */
  private volatile ChangePosition read;

  /** Where the rows handed to the converter end: the last one's after, or the feed's start. */
  private ChangePosition converted;

  /** The position the last record handed to Connect carries (null: none stored yet). */
  private ChangePosition carried;

  /**
   * With exactly-once, the position the last committed transaction stored (null: none since the
   * feed started at {@link #feedStart}).
   */
  private ChangePosition committed;

  /** Where the current feed started: the open's start, or a re-snapshot's. */
  private ChangePosition feedStart;

  /** Whether {@link #carried} was sent since the feed started (else it may predate it). */
  private boolean sentSinceFeedStart;

  private long lastSentMs;

  /** What signals did to the table: stored with every offset it writes. */
  private SignalState signals;

  /** The signal state the last record handed to Connect carries. */
  private SignalState carriedSignals;

  /** The hidden columns as offsets carry them, encoded again only when they grow. */
  private HiddenColumns hiddenEncoded;

  private String hiddenText;

  /**
   * @param stored what Connect stored for the partition, null when nothing
   * @param planned where the connector told the task to start, null when start.mode decides
   */
  TablePosition(StoredOffset stored, ChangePosition planned) {
    this(stored, planned, null);
  }

  /**
   * @param handOver where other shard counts stood, which the partition takes over from (see {@link
   *     ShardHandOvers}); null: none
   */
  TablePosition(StoredOffset stored, ChangePosition planned, HandOver handOver) {
    this.stored = stored;
    this.planned = planned;
    this.handOver = handOver;
    this.handOverText = handOver == null ? null : handOver.toText();
    this.carried = stored == null ? null : stored.position();
    this.hidden = new HiddenColumnsTracker(stored == null ? HiddenColumns.NONE : stored.hidden());
    this.signals = stored == null ? SignalState.NONE : stored.signals();
    this.carriedSignals = signals;
  }

  StoredOffset stored() {
    return stored;
  }

  ChangePosition planned() {
    return planned;
  }

  /** Where other shard counts stood, which the partition takes over from; null: none. */
  HandOver handOver() {
    return handOver;
  }

  /** The columns the rules hid so far; the table's masks and column lists add to them. */
  HiddenColumnsTracker hidden() {
    return hidden;
  }

  /** Whether the table has been opened. */
  boolean isOpen() {
    return identity != null;
  }

  TableIdentity identity() {
    return identity;
  }

  /**
   * The table {@code identity} names was opened at {@code start}. Unless it {@code resumed} at the
   * stored offset (there was none, its history was cleaned up, or it belongs to another table), the
   * start is stored at once, as for a table without an offset.
   */
  void opened(TableIdentity identity, ChangePosition start, boolean resumed) {
    this.identity = identity;
    if (!resumed) {
      carried = null;
    }
    feedStartsAt(start);
  }

  /**
   * The table starts over at {@code start} (a re-snapshot), as the table {@code identity} names: a
   * replaced table has another id from there on.
   */
  void startsOver(ChangePosition start, TableIdentity identity) {
    this.identity = identity;
    feedStartsAt(start);
  }

  /**
   * A table replaced in place streams on under a new Delta id: the offsets of its rows name that id
   * from the replacing version on.
   */
  void follow(String deltaTableId) {
    if (deltaTableId != null && !deltaTableId.equals(identity.deltaTableId())) {
      identity = new TableIdentity(deltaTableId, identity.catalogTableId());
    }
  }

  ChangePosition read() {
    return read;
  }

  /** The feed has read every row before {@code position}. */
  void readTo(ChangePosition position) {
    read = position;
  }

  /** Where the rows handed to the converter end. */
  ChangePosition converted() {
    return converted;
  }

  /** A row ending at {@code after} was handed to the converter. */
  void convertedTo(ChangePosition after) {
    converted = after;
  }

  /** What signals did to the table so far. */
  SignalState signals() {
    return signals;
  }

  /** A signal changed what the table's offsets must carry from here on. */
  void signalled(SignalState now) {
    signals = now;
  }

  /** A record carrying {@code offset} was handed to Connect. */
  void sent(ChangePosition offset, long nowMs) {
    carried = offset;
    carriedSignals = signals;
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
   * Goes back to the position the last committed transaction stored, or where the feed started when
   * none did, and returns it: the open transaction is being aborted.
   */
  ChangePosition returnToLastCommit() {
    read = committed != null ? committed : feedStart;
    converted = read;
    return read;
  }

  /**
   * The position a heartbeat must store now, or null: at once when the table has no stored offset
   * (which pins where a {@code latest} or timestamp start resolved to), otherwise at most once per
   * {@code intervalMs}, and never when the last record sent already carries it (with the signal
   * state it has now).
   */
  ChangePosition heartbeatDue(long nowMs, long intervalMs) {
    if (read.equals(carried) && signals.equals(carriedSignals)) {
      return null;
    }
    return carried == null || nowMs - lastSentMs >= intervalMs ? read : null;
  }

  /**
   * The offset that stores {@code position}, with the table's identity and its hidden columns, and
   * the hand-over until the position passes it: a restart before then goes on taking over.
   */
  Map<String, Object> offsetOf(ChangePosition position) {
    HiddenColumns now = hidden.current();
    if (now != hiddenEncoded) {
      hiddenText = OffsetCodec.hiddenText(now);
      hiddenEncoded = now;
    }
    return OffsetCodec.toMap(
        position, identity, hiddenText, signals, handingOverAt(position) ? handOverText : null);
  }

  private boolean handingOverAt(ChangePosition position) {
    return handOver != null
        && position instanceof ChangePosition.InVersion at
        && HandOver.ORDER.compare(at, handOver.end()) < 0;
  }

  /**
   * The feed starts at {@code start}: an aborted transaction returns there until one commits, never
   * to an offset stored before it, whose history may be gone.
   */
  private void feedStartsAt(ChangePosition start) {
    read = start;
    converted = start;
    feedStart = start;
    committed = null;
    sentSinceFeedStart = false;
  }
}
