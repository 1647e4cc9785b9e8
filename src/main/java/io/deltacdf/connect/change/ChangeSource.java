package io.deltacdf.connect.change;

/** Where a table's change rows come from (setting {@code change.source}). */
public enum ChangeSource {
  /** Delta's Change Data Feed; a version without it is an error. */
  CDF,
  /** Always derived from the data files each version removed and added; cdc files are ignored. */
  DERIVED,
  /** The Change Data Feed where it was enabled, derived changes where it was not. */
  AUTO
}
