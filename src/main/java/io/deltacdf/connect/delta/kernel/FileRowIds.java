package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.data.ColumnVector;

/**
 * The row tracking fields of an {@code add} or {@code remove} action: the row id of the file's
 * first row (a row's default id is this plus its physical index in the file) and the commit version
 * its rows have unless a materialized column says otherwise.
 */
public record FileRowIds(long baseRowId, long defaultRowCommitVersion) {

  /** The fields in {@code row} of an action's vectors, or null when the action lacks either. */
  static FileRowIds at(ColumnVector baseRowIds, ColumnVector defaultCommitVersions, int row) {
    if (baseRowIds.isNullAt(row) || defaultCommitVersions.isNullAt(row)) {
      return null;
    }
    return new FileRowIds(baseRowIds.getLong(row), defaultCommitVersions.getLong(row));
  }
}
