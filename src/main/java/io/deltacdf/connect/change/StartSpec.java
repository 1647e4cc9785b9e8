package io.deltacdf.connect.change;

/**
 * Where a new feed (one with no stored position) starts: the start options as the configuration
 * hands them out and as the Delta reader resolves them against a table.
 */
public sealed interface StartSpec {

  /** The table as of its latest version, as inserts, then every change after it. */
  record Snapshot() implements StartSpec {}

  /** The changes of the oldest version whose change data can still be read. */
  record Earliest() implements StartSpec {}

  /** Only changes committed after the table's latest version. */
  record Latest() implements StartSpec {}

  /** The changes of {@code version} and after. */
  record AtVersion(long version) implements StartSpec {}

  /** The changes of the first version committed at or after {@code epochMillis}, and after. */
  record AtTimestamp(long epochMillis) implements StartSpec {}
}
