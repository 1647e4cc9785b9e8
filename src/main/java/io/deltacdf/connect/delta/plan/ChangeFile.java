package io.deltacdf.connect.delta.plan;

import io.deltacdf.connect.delta.kernel.DeletionVector;
import io.deltacdf.connect.delta.kernel.FileRowIds;
import io.deltacdf.connect.delta.kernel.LogAction;
import java.util.Map;

/**
 * One file whose rows contribute to a version's changes, and how its rows become changes.
 *
 * @param path the path as written in the log (relative to the table root, URL-encoded, or absolute)
 * @param partitionValues partition values keyed by physical column name
 * @param addDv the deletion vector of the add action (rows hidden from readers), or null
 * @param removeDv the deletion vector of the remove action, or null
 * @param rowIds the row tracking fields of the data file's action (of the add, for a deletion
 *     vector update: both actions carry the same), or null when it has none or is a cdc file
 */
public record ChangeFile(
    Kind kind,
    String path,
    Map<String, String> partitionValues,
    long size,
    DeletionVector addDv,
    DeletionVector removeDv,
    FileRowIds rowIds) {

  public enum Kind {
    /** A cdc file: every row is a change, typed by its own {@code _change_type} column. */
    CDC,
    /** An added data file: its rows not hidden by {@code addDv} are inserts. */
    ADDED,
    /** A removed data file: its rows not hidden by {@code removeDv} are deletes. */
    REMOVED,
    /**
     * A file re-added with a new deletion vector: rows newly hidden are deletes, rows no longer
     * hidden are inserts (restores).
     */
    DV_UPDATE
  }

  public static ChangeFile cdc(String path, Map<String, String> partitionValues, long size) {
    return new ChangeFile(Kind.CDC, path, partitionValues, size, null, null, null);
  }

  /** An added or removed data file that is not half of a deletion vector update. */
  public static ChangeFile single(LogAction.FileAction file) {
    return file.kind() == LogAction.Kind.ADD
        ? new ChangeFile(
            Kind.ADDED,
            file.path(),
            file.partitionValues(),
            file.size(),
            file.deletionVector(),
            null,
            file.rowIds())
        : new ChangeFile(
            Kind.REMOVED,
            file.path(),
            file.partitionValues(),
            file.size(),
            null,
            file.deletionVector(),
            file.rowIds());
  }

  /** A file removed and added again in one commit, with its new and its old deletion vector. */
  public static ChangeFile dvUpdate(LogAction.FileAction add, LogAction.FileAction remove) {
    return new ChangeFile(
        Kind.DV_UPDATE,
        add.path(),
        add.partitionValues(),
        add.size(),
        add.deletionVector(),
        remove.deletionVector(),
        add.rowIds());
  }
}
