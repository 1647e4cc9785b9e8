package io.deltacdf.connect.offset;

/**
 * What signals did to a table, stored in its offsets so that a restart or a rebalance neither
 * repeats nor forgets them.
 *
 * @param nextSignal the signal topic's offset from which the table still has to act on signals; -1
 *     when none is known yet (an offset written before signals, or by hand)
 * @param paused whether a pause signal stopped the table's reading
 * @param snapshotFilter the condition (row.filter syntax) of the signalled snapshot the table is
 *     in; null when none is
 */
public record SignalState(long nextSignal, boolean paused, String snapshotFilter) {

  /** Nothing known: no signal was acted on, and none is stored. */
  public static final SignalState NONE = new SignalState(-1, false, null);

  public SignalState withNextSignal(long offset) {
    return new SignalState(offset, paused, snapshotFilter);
  }

  public SignalState withPaused(boolean pausedNow) {
    return new SignalState(nextSignal, pausedNow, snapshotFilter);
  }

  public SignalState withSnapshotFilter(String filter) {
    return new SignalState(nextSignal, paused, filter);
  }
}
