package io.deltacdf.connect.delta.rowtracking;

import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.plan.ChangeFile;
import io.deltacdf.connect.delta.plan.ChangeFiles;
import java.util.Map;
import java.util.Optional;

/**
 * Row tracking as a table's metadata enables it (Delta protocol, "Row Tracking"): every row has a
 * stable row id and a row commit version, each read from a materialized column of the data file
 * where that column is present and not null, else from the file's action ({@code baseRowId} plus
 * the row's physical index; {@code defaultRowCommitVersion}).
 *
 * @param rowIdColumn the physical name of the materialized row id column, or null when the table
 *     names none
 * @param commitVersionColumn the physical name of the materialized row commit version column, or
 *     null
 */
public record RowTracking(String rowIdColumn, String commitVersionColumn) {

  static final String ENABLED = "delta.enableRowTracking";
  static final String SUSPENDED = "delta.rowTrackingSuspended";
  static final String ROW_ID_COLUMN = "delta.rowTracking.materializedRowIdColumnName";
  static final String COMMIT_VERSION_COLUMN =
      "delta.rowTracking.materializedRowCommitVersionColumnName";

  /**
   * Row tracking as {@code metadata} sets it, or empty where it is not enabled: before it is,
   * writers need not preserve row ids, so they pair nothing.
   */
  public static Optional<RowTracking> of(TableMetadata metadata) {
    Map<String, String> configuration = metadata.configuration();
    if (!Boolean.parseBoolean(configuration.getOrDefault(ENABLED, "false"))
        || Boolean.parseBoolean(configuration.getOrDefault(SUSPENDED, "false"))) {
      return Optional.empty();
    }
    return Optional.of(
        new RowTracking(
            configuration.get(ROW_ID_COLUMN), configuration.get(COMMIT_VERSION_COLUMN)));
  }

  /**
   * Whether every file of a version carries its row tracking fields; a file without them (written
   * before row tracking was enabled, and not backfilled) has rows whose ids are unknown.
   */
  public static boolean covers(ChangeFiles files) {
    for (int i = 0; i < files.size(); i++) {
      ChangeFile file = files.get(i);
      if (file.kind() == ChangeFile.Kind.CDC || file.rowIds() == null) {
        return false;
      }
    }
    return true;
  }
}
