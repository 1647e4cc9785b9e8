package io.deltacdf.connect.change;

/** Where a table's change rows come from (setting {@code change.source}). */
public enum ChangeSource {
  /** Delta's Change Data Feed; a version without it is an error. */
  CDF,
  /** Always derived from the data files each version removed and added; cdc files are ignored. */
  DERIVED,
  /**
   * Paired by row id from the removed and added data files of versions with row tracking enabled
   * (cdc files ignored); derived like {@link #DERIVED} where a version's files carry no row ids.
   */
  ROW_TRACKING,
  /**
   * The Change Data Feed where it was enabled, else row tracking where the version has it, else
   * derived.
   */
  AUTO
}
