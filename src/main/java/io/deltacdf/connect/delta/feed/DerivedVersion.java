package io.deltacdf.connect.delta.feed;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.delta.derived.RowDiff;
import io.deltacdf.connect.delta.derived.RowFingerprints;
import io.deltacdf.connect.delta.plan.ChangeFiles;
import io.deltacdf.connect.delta.read.DerivedRows;
import io.deltacdf.connect.delta.read.FileRowCursor;
import io.deltacdf.connect.delta.read.PartitionFilter;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The derived changes of one version that both removes and adds rows: a first pass over its files
 * fingerprints every candidate row (rows of removed files visible before the version, rows newly
 * hidden or un-hidden by a deletion vector, visible rows of added files) into a {@link RowDiff};
 * cursors then read the files again and keep only the rows the diff calls changes.
 *
 * <p>Decisions depend on the rows decided before (see {@link RowDiff}), so a cursor opened at a
 * position the decisions have not reached first replays the rows before it; one opened behind them
 * starts over from a fresh first pass. Reading the version front to back costs two passes, resuming
 * inside it at most three.
 *
 * <p>A large version's diff spills to local temp files ({@link ChangeRules#diffSpill}); {@link
 * #close} deletes them.
 */
public final class DerivedVersion implements DerivedRows, DiffedVersion {

  private final FeedContext context;
  private final long version;
  private final ChangeFiles files;
  private final TableSchema schema;
  private final int[] keyColumns;
  private final DiffSpill spill;
  private final PartitionFilter partitions;
  private final RowFingerprints fingerprints = new RowFingerprints();
  private RowDiff diff;

  /** Decisions were made for every row of the files before this one, and for none after. */
  private int decidedFiles;

  /**
   * @param partitions which files are read: the others take no part in the diff
   */
  public DerivedVersion(
      FeedContext context,
      long version,
      ChangeFiles files,
      TableSchema schema,
      ChangeRules rules,
      PartitionFilter partitions) {
    this.partitions = partitions;
    this.context = context;
    this.version = version;
    this.files = files;
    this.schema = schema;
    this.keyColumns = keyColumnIndexes(schema.logical(), rules.keyColumns());
    this.spill = rules.diffSpill();
  }

  /** Key columns by position; none when a name is missing (the converter reports that). */
  private static int[] keyColumnIndexes(FieldType.Struct logical, List<String> names) {
    int[] indexes = new int[names.size()];
    for (int i = 0; i < indexes.length; i++) {
      String name = names.get(i);
      indexes[i] =
          IntStream.range(0, logical.fields().size())
              .filter(f -> logical.fields().get(f).name().equalsIgnoreCase(name))
              .findFirst()
              .orElse(-1);
      if (indexes[i] < 0) {
        return new int[0];
      }
    }
    return indexes;
  }

  @Override
  public FileRowCursor open(int fileIndex, long fromRow) {
    if (diff == null || decidedFiles > fileIndex) {
      close();
      diff = firstPass();
      decidedFiles = 0;
    }
    for (; decidedFiles < fileIndex; decidedFiles++) {
      if (read(decidedFiles)) {
        replay(decidedFiles, Long.MAX_VALUE);
      }
    }
    if (fromRow > 0) {
      replay(fileIndex, fromRow);
    }
    // The cursor decides the rest of the file as it is read.
    decidedFiles = fileIndex + 1;
    return cursor(fileIndex, fromRow, Long.MAX_VALUE, this);
  }

  @Override
  public ChangeType decide(ChangeType side, Candidate row) {
    Object[] values = row.values();
    ChangeType change = diff.decide(side, fingerprints.of(values));
    if (change == null || keyColumns.length == 0) {
      return change;
    }
    return diff.paired(change, fingerprints.ofColumns(values, keyColumns));
  }

  /** Deletes the diff's spill files; a later {@link #open} starts over from a first pass. */
  @Override
  public void close() {
    if (diff != null) {
      diff.close();
      diff = null;
    }
  }

  private RowDiff firstPass() {
    try (RowDiff.Builder builder = new RowDiff.Builder(keyColumns.length > 0, spill)) {
      for (int file = 0; file < files.size(); file++) {
        if (!read(file)) {
          continue;
        }
        try (FileRowCursor candidates = cursor(file, 0, Long.MAX_VALUE, null)) {
          while (candidates.hasNext()) {
            candidates.next();
            Object[] values = candidates.values();
            long key = keyColumns.length == 0 ? 0 : fingerprints.ofColumns(values, keyColumns);
            builder.add(candidates.type(), fingerprints.of(values), key);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return builder.build();
    }
  }

  /** Whether file {@code fileIndex} is of a partition the row filter lets through. */
  private boolean read(int fileIndex) {
    return partitions.test(files.get(fileIndex).partitionValues());
  }

  /** Makes the decisions for the rows of file {@code fileIndex} before {@code untilRow}. */
  private void replay(int fileIndex, long untilRow) {
    try (FileRowCursor rows = cursor(fileIndex, 0, untilRow, this)) {
      while (rows.hasNext()) {
        rows.next();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private FileRowCursor cursor(int fileIndex, long fromRow, long untilRow, DerivedRows rows) {
    return new FileRowCursor(
        context, version, files.get(fileIndex), schema, fromRow, untilRow, rows);
  }
}
