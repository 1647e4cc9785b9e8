package io.deltacdf.connect.offset;

import io.deltacdf.connect.change.ChangePosition;
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
 */
public record StoredOffset(
    ChangePosition position, TableIdentity identity, HiddenColumns hidden, SignalState signals) {

  public StoredOffset {
    Objects.requireNonNull(hidden, "hidden");
    Objects.requireNonNull(signals, "signals");
  }
}
