package io.deltacdf.connect.offset;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.TableIdentity;
import java.util.Objects;

/**
 * A source offset as Connect stored it: the position, the identity of the table it belongs to, and
 * the columns the stream's rules hid up to there.
 *
 * @param identity null for an offset written before offsets carried it, or written by hand through
 *     the REST API without it: such an offset belongs to whichever table is at the path now
 * @param hidden the columns masks and column lists hid, by identity, so that they stay hidden under
 *     any later name after a restart
 * @param signals what signals did to the table up to there
 * @param handOver where the partitions of another shard count stood, which this one still takes
 *     over from; null when it does not (see {@link HandOver})
 */
public record StoredOffset(
    ChangePosition position,
    TableIdentity identity,
    HiddenColumns hidden,
    SignalState signals,
    HandOver handOver) {

  public StoredOffset {
    Objects.requireNonNull(hidden, "hidden");
    Objects.requireNonNull(signals, "signals");
  }

  /** An offset without a hand-over. */
  public StoredOffset(
      ChangePosition position, TableIdentity identity, HiddenColumns hidden, SignalState signals) {
    this(position, identity, hidden, signals, null);
  }
}
