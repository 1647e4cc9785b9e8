package io.deltacdf.connect.convert;

/** How timestamp and timestamp_ntz columns, which Delta stores in microseconds, are carried. */
public enum TemporalPrecision {
  /** Connect {@code Timestamp} (epoch milliseconds): understood by every sink; drops micros. */
  MILLISECONDS,
  /**
   * int64 epoch microseconds named {@code io.debezium.time.MicroTimestamp}, as Debezium emits them:
   * lossless, and understood by Debezium-aware sinks.
   */
  MICROSECONDS
}
