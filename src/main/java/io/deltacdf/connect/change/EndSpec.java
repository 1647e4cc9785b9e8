package io.deltacdf.connect.change;

/**
 * Where a bounded run ends (end.version or end.timestamp): each table's feed reads up to and
 * including one version, resolved against the table as its start is, then reads no more.
 */
public sealed interface EndSpec {

  /** The changes up to and including {@code version}. */
  record AtVersion(long version) implements EndSpec {}

  /**
   * The changes up to and including the last version committed at or before {@code epochMillis}.
   */
  record AtTimestamp(long epochMillis) implements EndSpec {}
}
