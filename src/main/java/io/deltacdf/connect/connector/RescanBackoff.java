package io.deltacdf.connect.connector;

import java.time.Duration;

/**
 * When the table roots are listed next. After a listing that succeeded, in the rescan interval;
 * after failures, sooner: 1 s after the first, doubling with each one in a row, up to the interval.
 * A connector whose roots were never listed streams none of their tables, so it must not wait a
 * whole interval (5 minutes by default) for a store that was down for seconds.
 */
final class RescanBackoff {

  static final Duration FIRST_RETRY = Duration.ofSeconds(1);

  private RescanBackoff() {}

  /** The delay before the next listing, after {@code failuresInARow} failed ones. */
  static Duration delay(int failuresInARow, Duration interval) {
    if (failuresInARow <= 0) {
      return interval;
    }
    int doublings = Math.min(failuresInARow - 1, 30);
    Duration retry = FIRST_RETRY.multipliedBy(1L << doublings);
    return retry.compareTo(interval) < 0 ? retry : interval;
  }
}
