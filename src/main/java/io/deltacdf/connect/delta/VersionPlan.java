package io.deltacdf.connect.delta;

import java.util.List;
import java.util.Optional;

/**
 * What one commit version contributes to the change feed.
 *
 * @param files the change files in log order, by the Change Data Feed's rules; empty for versions
 *     without row changes
 * @param dataFiles the added and removed data files in log order, which derived changes are read
 *     from (cdc files ignored); empty for versions without row changes
 * @param newSchema the schema this version installs, when it has a metadata action
 * @param inCommitTimestamp the commit's in-commit timestamp, when it has one
 */
record VersionPlan(
    long version,
    List<ChangeFile> files,
    List<ChangeFile> dataFiles,
    Optional<TableSchema> newSchema,
    Optional<Long> inCommitTimestamp) {

  /**
   * Whether deriving this version's changes needs a diff: rows leave the table (removed files,
   * rows newly hidden by a deletion vector) and rows enter it (added files) in the same version,
   * so some may be the same rows rewritten (copy-on-write UPDATE, MERGE, DELETE, overwrite).
   */
  boolean derivationNeedsDiff() {
    boolean rowsLeave = false;
    boolean rowsEnter = false;
    for (ChangeFile file : dataFiles) {
      switch (file.kind()) {
        case ADDED -> rowsEnter = true;
        case REMOVED -> rowsLeave = true;
        case DV_UPDATE -> {
          rowsLeave = true;
          // A re-added file may also un-hide rows (RESTORE): they enter.
          rowsEnter |= file.removeDv() != null;
        }
        default -> {}
      }
    }
    return rowsLeave && rowsEnter;
  }
}
