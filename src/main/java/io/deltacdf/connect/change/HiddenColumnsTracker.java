package io.deltacdf.connect.change;

import java.util.List;

/**
 * One table stream's {@link HiddenColumns} as its rules learn them: it starts from the seed the
 * stream was opened with and only grows. The read path (which columns are read) and the converter
 * (which values are masked) share one tracker, so a column either of them saw hidden stays hidden
 * for both. Safe to share between threads.
 */
public final class HiddenColumnsTracker {

  private volatile HiddenColumns current;

  public HiddenColumnsTracker(HiddenColumns seed) {
    this.current = seed;
  }

  /** A tracker of a stream that never ran. */
  public static HiddenColumnsTracker empty() {
    return new HiddenColumnsTracker(HiddenColumns.NONE);
  }

  /** What is hidden now: the seed and every column learnt since. */
  public HiddenColumns current() {
    return current;
  }

  /** Learns that a rule hides the column of {@code identity}. */
  public synchronized void hide(List<String> identity, HiddenColumns.Rule rule) {
    current = current.with(identity, rule);
  }
}
