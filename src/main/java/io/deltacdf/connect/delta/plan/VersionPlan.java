package io.deltacdf.connect.delta.plan;

import io.deltacdf.connect.delta.kernel.TableMetadata;
import java.util.Optional;

/**
 * What one commit version contributes to the change feed.
 *
 * @param files the change files in log order, by the Change Data Feed's rules; empty for versions
 *     without row changes
 * @param dataFiles the added and removed data files in log order, which derived changes are read
 *     from (cdc files ignored); empty for versions without row changes
 * @param derivationNeedsDiff whether deriving this version's changes needs a diff: rows leave the
 *     table and rows enter it in the same version, so some may be the same rows rewritten
 * @param newMetadata the metadata (schema included) this version installs, when it has any
 * @param inCommitTimestamp the commit's in-commit timestamp, when it has one
 * @param becomesCatalogManaged whether the version's protocol makes the table catalog-managed
 * @param operation the operation its commitInfo names (WRITE, MERGE, DELETE ...), when it has one
 */
public record VersionPlan(
    long version,
    ChangeFiles files,
    ChangeFiles dataFiles,
    boolean derivationNeedsDiff,
    Optional<TableMetadata> newMetadata,
    Optional<Long> inCommitTimestamp,
    boolean becomesCatalogManaged,
    Optional<String> operation)
    implements AutoCloseable {

  /**
   * Whether the commit is a RESTORE, whose rows Spark's change feed gives as they are in the files
   * it removes and adds (deletes and inserts, never paired).
   */
  public boolean restores() {
    return operation.filter("RESTORE"::equals).isPresent();
  }

  /** Releases both sets of files, the one read and the one not (it may hold temp files too). */
  @Override
  public void close() {
    try (dataFiles) {
      files.close();
    }
  }
}
