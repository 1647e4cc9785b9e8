package io.deltacdf.connect.convert;

import java.util.Locale;

/** How timestamp and timestamp_ntz columns, which Delta stores in microseconds, are carried. */
public enum TemporalPrecision {
  /** Connect {@code Timestamp} (epoch milliseconds): understood by every sink; drops micros. */
  MILLISECONDS,
  /**
   * int64 epoch microseconds named {@code io.debezium.time.MicroTimestamp}, as Debezium emits
   * them: lossless, and understood by Debezium-aware sinks.
   */
  MICROSECONDS;

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TemporalPrecision parse(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
