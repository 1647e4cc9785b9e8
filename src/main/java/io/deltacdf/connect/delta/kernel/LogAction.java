package io.deltacdf.connect.delta.kernel;

import java.util.Map;
import java.util.Optional;

/** One action of a commit file that the change feed reads. */
public sealed interface LogAction {

  /** Which kinds of action a commit is read for. */
  enum Kind {
    ADD,
    REMOVE,
    CDC,
    METADATA,
    PROTOCOL,
    COMMIT_INFO
  }

  /**
   * An {@code add}, {@code remove} or {@code cdc} action.
   *
   * @param partitionValues partition values keyed by physical column name
   * @param size the file's size in bytes, or -1 when a remove does not say
   * @param extendedFileMetadata whether a remove carries its file's partition values and size
   * @param deletionVector the rows the action hides, or null (always null for cdc files)
   * @param rowIds the action's row tracking fields, or null when it has none (cdc files, files
   *     written before row tracking was enabled)
   */
  record FileAction(
      Kind kind,
      String path,
      Map<String, String> partitionValues,
      long size,
      boolean dataChange,
      boolean extendedFileMetadata,
      DeletionVector deletionVector,
      FileRowIds rowIds)
      implements LogAction {}

  /** A {@code metaData} action. */
  record MetadataAction(TableMetadata metadata) implements LogAction {}

  /**
   * A {@code protocol} action.
   *
   * @param catalogManaged whether it makes the table catalog-managed (see {@link TableProtocol})
   */
  record ProtocolAction(boolean catalogManaged) implements LogAction {}

  /** A {@code commitInfo} action, as far as the change feed cares. */
  record CommitInfo(
      Optional<String> operation,
      Map<String, String> operationMetrics,
      Optional<Long> inCommitTimestamp)
      implements LogAction {}
}
