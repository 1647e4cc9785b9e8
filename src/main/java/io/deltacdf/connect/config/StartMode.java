package io.deltacdf.connect.config;

/**
 * The values of start.mode: where a table's feed starts when the connector has no stored offset for
 * it. The rest of the connector sees the start as a {@link io.deltacdf.connect.change.StartSpec}.
 */
enum StartMode {
  /** The current table contents as inserts, then every change after them. */
  SNAPSHOT,
  /** The oldest version whose changes can still be read. */
  EARLIEST,
  /** Only changes committed after the connector starts. */
  LATEST,
  /** The changes of {@code start.version} and after. */
  VERSION,
  /** The changes of the first version committed at or after {@code start.timestamp}. */
  TIMESTAMP
}
