package io.deltacdf.connect.delta.feed;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.derived.RowIdDiff;
import io.deltacdf.connect.delta.kernel.FileRowIds;
import io.deltacdf.connect.delta.plan.ChangeFiles;
import io.deltacdf.connect.delta.read.DerivedRows;
import io.deltacdf.connect.delta.read.FileRowCursor;
import io.deltacdf.connect.delta.rowtracking.RowTracking;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The changes of one version of a table with row tracking that both removes and adds rows: a first
 * pass reads the stable row id and row commit version of every candidate row (rows of removed files
 * visible before the version, rows a deletion vector newly hides or un-hides, visible rows of added
 * files) into a {@link RowIdDiff}, reading only the materialized row tracking columns of the files
 * (none of the table's), and noting each row's file and physical row. Pairing by id then tells
 * which physical rows of which files are changes, so cursors decode those rows alone: a version
 * rewrites whole files to change a few of their rows. A decision depends on the row's place only,
 * so a cursor opens anywhere without replaying the rows before it.
 *
 * <p>The first pass reads every file of the version, also those of partitions the row filter
 * refuses: a row that moves into a read partition is then an update there, as in Spark's feed.
 */
final class RowTrackingVersion implements DiffedVersion {

  private final FeedContext context;
  private final long version;
  private final ChangeFiles files;
  private final TableSchema schema;
  private final DiffSpill spill;

  /** The materialized columns the table names, in the order decisions read them. */
  private final List<String> hiddenColumns = new ArrayList<>();

  private final int rowIdColumn;
  private final int commitVersionColumn;
  private RowIdDiff diff;

  RowTrackingVersion(
      FeedContext context,
      long version,
      ChangeFiles files,
      TableSchema schema,
      RowTracking tracking,
      DiffSpill spill) {
    this.context = context;
    this.version = version;
    this.files = files;
    this.schema = schema;
    this.spill = spill;
    this.rowIdColumn = addHidden(tracking.rowIdColumn());
    this.commitVersionColumn = addHidden(tracking.commitVersionColumn());
  }

  private int addHidden(String column) {
    if (column == null) {
      return -1;
    }
    hiddenColumns.add(column);
    return hiddenColumns.size() - 1;
  }

  @Override
  public FileRowCursor open(int fileIndex, long fromRow) {
    if (diff == null) {
      diff = firstPass();
    }
    RowIdDiff.FileChanges changes = diff.changesIn(fileIndex, fromRow);
    return new FileRowCursor(
        context,
        version,
        files.get(fileIndex),
        schema,
        fromRow,
        Long.MAX_VALUE,
        new Decided(changes),
        changes.rows());
  }

  @Override
  public void close() {
    if (diff != null) {
      diff.close();
      diff = null;
    }
  }

  private RowIdDiff firstPass() {
    try (RowIdDiff.Builder builder = new RowIdDiff.Builder(spill)) {
      for (int file = 0; file < files.size(); file++) {
        Candidates collect = new Candidates(file, files.get(file).rowIds(), builder);
        try (FileRowCursor candidates =
            new FileRowCursor(
                context, version, files.get(file), schema, 0, Long.MAX_VALUE, collect)) {
          // Collecting decides every row to be no change: the loop reads the file to its end.
          candidates.hasNext();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return builder.build();
    } catch (RowIdDiff.DuplicateRowIdException e) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          "Table "
              + context.table()
              + " version "
              + version
              + " has row id "
              + e.rowId()
              + " twice among the rows it removes or among the rows it adds, so row tracking"
              + " cannot pair its changes: the table's row ids are not unique. Set"
              + " change.source=derived (or cdf, if the table has its Change Data Feed)");
    }
  }

  /**
   * The first pass over one file: its rows' stable row ids and commit versions go to {@code
   * builder}, with their place, and none is kept.
   */
  private final class Candidates implements DerivedRows {
    private final int fileIndex;
    private final FileRowIds file;
    private final RowIdDiff.Builder builder;

    Candidates(int fileIndex, FileRowIds file, RowIdDiff.Builder builder) {
      this.fileIndex = fileIndex;
      this.file = file;
      this.builder = builder;
    }

    @Override
    public List<String> hiddenColumns() {
      return hiddenColumns;
    }

    @Override
    public boolean readsValues() {
      return false;
    }

    @Override
    public ChangeType decide(ChangeType side, Candidate row) {
      long defaultId = file.baseRowId() + row.physicalRow();
      long rowId = rowIdColumn < 0 ? defaultId : row.hidden(rowIdColumn, defaultId);
      long defaultVersion = file.defaultRowCommitVersion();
      builder.add(
          side,
          rowId,
          commitVersionColumn < 0
              ? defaultVersion
              : row.hidden(commitVersionColumn, defaultVersion),
          fileIndex,
          row.physicalRow());
      return null;
    }
  }

  /** The rows of one file as the diff decided them, by physical row. */
  private record Decided(RowIdDiff.FileChanges changes) implements DerivedRows {
    @Override
    public ChangeType decide(ChangeType side, Candidate row) {
      return changes.decide(side, row.physicalRow());
    }
  }
}
