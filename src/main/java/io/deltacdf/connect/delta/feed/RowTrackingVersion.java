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
import java.util.stream.LongStream;

/**
 * The changes of one version of a table with row tracking that both removes and adds rows: a first
 * pass reads the stable row id and row commit version of every candidate row (rows of removed files
 * visible before the version, rows a deletion vector newly hides or un-hides, visible rows of added
 * files) into a {@link RowIdDiff}, reading only the materialized row tracking columns of the files
 * (none of the table's); cursors then read the files again and keep the rows the diff calls
 * changes. A decision depends on the row's id only, so a cursor opens anywhere without replaying
 * the rows before it.
 *
 * <p>A version rewrites whole files to change a few of their rows, so before a cursor reads a file
 * with all its columns, a pass over the row tracking columns alone picks out the file's changed
 * rows, and the cursor decodes only those.
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
    Decisions decisions = new Decisions(files.get(fileIndex).rowIds(), null, null);
    if (hiddenColumns.isEmpty()) {
      // Picking out the changed rows would read every column: read the file once, whole.
      return cursor(fileIndex, fromRow, decisions);
    }
    return new FileRowCursor(
        context,
        version,
        files.get(fileIndex),
        schema,
        fromRow,
        Long.MAX_VALUE,
        decisions,
        changedRows(fileIndex, fromRow));
  }

  /** The physical rows of a file from {@code fromRow} on that are changes, ascending. */
  private long[] changedRows(int fileIndex, long fromRow) {
    LongStream.Builder changed = LongStream.builder();
    Decisions select = new Decisions(files.get(fileIndex).rowIds(), null, changed);
    try (FileRowCursor rows = cursor(fileIndex, fromRow, select)) {
      // Selecting decides every row to be no change: the loop reads the file to its end.
      rows.hasNext();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return changed.build().toArray();
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
        Decisions collect = new Decisions(files.get(file).rowIds(), builder, null);
        try (FileRowCursor candidates = cursor(file, 0, collect)) {
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

  private FileRowCursor cursor(int fileIndex, long fromRow, Decisions decisions) {
    return new FileRowCursor(
        context, version, files.get(fileIndex), schema, fromRow, Long.MAX_VALUE, decisions);
  }

  /**
   * The rows of one file by stable row id: collected into {@code builder} (and none kept) in the
   * first pass, decided by the diff after it; with {@code selected}, the physical rows of the
   * changes are collected there (and none kept).
   */
  private final class Decisions implements DerivedRows {
    private final FileRowIds file;
    private final RowIdDiff.Builder builder;
    private final LongStream.Builder selected;

    Decisions(FileRowIds file, RowIdDiff.Builder builder, LongStream.Builder selected) {
      this.file = file;
      this.builder = builder;
      this.selected = selected;
    }

    @Override
    public List<String> hiddenColumns() {
      // After the first pass, decisions need the row id alone (the commit version is paired).
      if (builder == null && rowIdColumn == 0) {
        return hiddenColumns.subList(0, 1);
      }
      return hiddenColumns;
    }

    @Override
    public boolean readsValues() {
      // The first pass and the selection of a file's changes read row ids and commit versions only.
      return builder == null && selected == null;
    }

    @Override
    public ChangeType decide(ChangeType side, Candidate row) {
      Long materializedId = rowIdColumn < 0 ? null : row.hidden(rowIdColumn);
      long rowId = materializedId != null ? materializedId : file.baseRowId() + row.physicalRow();
      if (builder == null) {
        ChangeType change = diff.decide(side, rowId);
        if (selected == null || change == null) {
          return change;
        }
        selected.add(row.physicalRow());
        return null;
      }
      Long materializedVersion = commitVersionColumn < 0 ? null : row.hidden(commitVersionColumn);
      builder.add(
          side,
          rowId,
          materializedVersion != null ? materializedVersion : file.defaultRowCommitVersion());
      return null;
    }
  }
}
