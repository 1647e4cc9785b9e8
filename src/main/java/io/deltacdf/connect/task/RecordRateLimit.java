package io.deltacdf.connect.task;

import java.util.function.LongSupplier;

/**
 * max.rows.per.second for one task: a token bucket of change records handed to Connect (heartbeats
 * are not counted). Tokens accrue at the rate from the first record on, up to one second's worth,
 * so a task that was idle may catch up by at most one second of records at once.
 *
 * <p>Records are allowed in chunks of a tenth of a second's worth: a task at its limit hands over
 * about ten batches a second rather than one record per poll. The first chunk is free, so the time
 * from the first record to the last is the count over the rate, whatever the tables took to open.
 *
 * <p>Used by the poll's thread only.
 */
final class RecordRateLimit {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final long perSecond;
  private final long chunk;
  private final LongSupplier nanoTime;
  private double tokens;
  private long refilledAtNanos;
  private boolean started;

  /**
   * @param perSecond records per second; 0 = no limit
   * @param nanoTime the clock, {@link System#nanoTime} but in tests
   */
  RecordRateLimit(int perSecond, LongSupplier nanoTime) {
    this.perSecond = perSecond;
    this.chunk = Math.max(1, perSecond / 10);
    this.nanoTime = nanoTime;
    this.tokens = chunk;
  }

  static RecordRateLimit perSecond(int perSecond) {
    return new RecordRateLimit(perSecond, System::nanoTime);
  }

  private boolean unlimited() {
    return perSecond == 0;
  }

  /**
   * How many records may be handed over now: none until a chunk has accrued; as many as wanted
   * without a limit.
   */
  int allowance() {
    if (unlimited()) {
      return Integer.MAX_VALUE;
    }
    refill();
    return tokens >= chunk ? (int) Math.min(Integer.MAX_VALUE, (long) tokens) : 0;
  }

  /**
   * {@code records} were handed over: taken from the bucket, which may go below zero when a read
   * yields a few more records than allowed (held-back update images); the debt is paid first.
   */
  void spent(int records) {
    if (unlimited() || records == 0) {
      return;
    }
    refill();
    if (!started) {
      started = true;
      refilledAtNanos = nanoTime.getAsLong();
    }
    tokens -= records;
  }

  /** Milliseconds until the next chunk is allowed; 0 when it already is, or without a limit. */
  long waitMs() {
    if (unlimited()) {
      return 0;
    }
    refill();
    double missing = chunk - tokens;
    return missing <= 0 ? 0 : (long) Math.ceil(missing * 1000 / perSecond);
  }

  private void refill() {
    if (!started) {
      return;
    }
    long now = nanoTime.getAsLong();
    tokens =
        Math.min(
            perSecond, tokens + (double) (now - refilledAtNanos) * perSecond / NANOS_PER_SECOND);
    refilledAtNanos = now;
  }
}
