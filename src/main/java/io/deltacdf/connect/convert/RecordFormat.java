package io.deltacdf.connect.convert;

/** The shape of a record's value. */
public enum RecordFormat {
  /** The changed row itself; the change metadata travels in headers. */
  ROW,
  /**
   * Debezium's change event: {@code before}, {@code after}, {@code op}, {@code ts_ms} and a {@code
   * source} struct; an update's pre- and post-image become one event.
   */
  ENVELOPE
}
