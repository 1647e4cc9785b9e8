package io.deltacdf.connect.delta.read;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.DeletedRows;
import io.deltacdf.connect.delta.kernel.DeletionVector;
import io.deltacdf.connect.delta.kernel.KernelIterators;
import io.deltacdf.connect.delta.kernel.LongParquetColumns;
import io.deltacdf.connect.delta.kernel.SelectedParquetRows;
import io.deltacdf.connect.delta.plan.ChangeFile;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.ShardRule;
import io.deltacdf.connect.delta.table.TablePaths;
import io.deltacdf.connect.delta.table.TableSchema;
import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.stream.LongStream;

/**
 * Streams the change rows of one {@link ChangeFile}, one Parquet batch at a time, starting at a
 * physical row index. It looks one row ahead so that {@link #hasNext()} is exact, which lets the
 * feed tell when a row is the last of its file. A cursor of one shard ({@link #keepOnly}) first
 * reads only what its decisions need (the key columns, a cdc file's {@code _change_type}) to pick
 * out the shard's change rows, then decodes those only; where that narrow pass would read every
 * column anyway, it decides row by row from the key columns whether to decode the rest. A cursor
 * given a selection of rows decodes those only: the others are no changes. The file is opened at
 * the first {@link #hasNext()}.
 */
public final class FileRowCursor implements Closeable {

  private final FeedContext context;
  private final long version;
  private final ChangeFile file;

  /** The file's full path, as errors name it. */
  private final String location;

  private final TableSchema schema;
  private final Object[] partitionValues;
  private final FileReadLayout layout;
  private final int[] dataOrdinal;
  private final int changeTypeOrdinal;
  private final DeletedRows addDeleted;
  private final DeletedRows removeDeleted;

  /** Decides which candidate rows of a diffed derived version are changes; null otherwise. */
  private final DerivedRows derived;

  /** Where the columns {@link DerivedRows#hiddenColumns()} names are in the batches read. */
  private final int[] hiddenOrdinal;

  private final Candidate candidate = new Candidate();

  /** The shard whose rows are kept, decided after {@link #derived}; null: every row. */
  private ShardKeys shard;

  /** Whether a change row of another shard was passed over since the current row. */
  private boolean droppedSinceCurrent;

  /** Whether a change row of another shard follows the last row of a shard's selection. */
  private boolean othersAfterSelection;

  /** False when only the hidden columns are read: the decisions need no values. */
  private final boolean valuesRead;

  private final long fromRow;

  /** The physical row the cursor stops before. */
  private final long untilRow;

  /**
   * The physical rows read, ascending, from the first at or after the start on; null: every row.
   */
  private long[] selection;

  /** Null until the first {@link #hasNext()}. */
  private CloseableIterator<ColumnarBatch> batches;

  private ColumnarBatch batch;

  /** The hidden columns of {@link #batch} as they are first asked for: a lookup per row costs. */
  private ColumnVector[] hiddenVectors;

  /**
   * The index of the batch's first row among the rows read: its physical row, or with a {@link
   * #selection}, where in it its physical row is.
   */
  private long batchStart;

  private int rowInBatch;
  private boolean prefetched;
  private ChangeType pendingType;

  /** The {@code _change_type} value of a cdc file's row. */
  private String pendingLabel;

  /** The values of the row found ahead, when deciding about it needed them. */
  private Object[] pendingValues;

  private ChangeType type;
  private String label;
  private Object[] values;
  private long physicalRow;

  public FileRowCursor(
      FeedContext context, long version, ChangeFile file, TableSchema schema, long fromRow) {
    this(context, version, file, schema, fromRow, Long.MAX_VALUE, null);
  }

  /**
   * A cursor on the rows from {@code fromRow} up to (not including) {@code untilRow} whose changes
   * {@code derived} (if not null) decides from their values.
   */
  public FileRowCursor(
      FeedContext context,
      long version,
      ChangeFile file,
      TableSchema schema,
      long fromRow,
      long untilRow,
      DerivedRows derived) {
    this(context, version, file, schema, fromRow, untilRow, derived, null);
  }

  /**
   * A cursor as above that reads only the physical rows {@code selection} lists (ascending, no
   * repeats; null: every row), decoding no other.
   */
  public FileRowCursor(
      FeedContext context,
      long version,
      ChangeFile file,
      TableSchema schema,
      long fromRow,
      long untilRow,
      DerivedRows derived,
      long[] selection) {
    this.context = context;
    this.derived = derived;
    this.untilRow = untilRow;
    this.version = version;
    this.file = file;
    this.location = TablePaths.resolve(context, version, file.path());
    this.schema = schema;
    this.partitionValues = PartitionValues.resolve(schema, file.partitionValues());
    List<String> hidden = derived == null ? List.of() : derived.hiddenColumns();
    this.valuesRead = derived == null || derived.readsValues() || hidden.isEmpty();
    this.layout = FileReadLayout.of(context, version, file, location, schema, valuesRead, hidden);
    this.dataOrdinal = layout.dataOrdinal();
    this.hiddenOrdinal = layout.hiddenOrdinal();
    this.changeTypeOrdinal = layout.changeTypeOrdinal();
    this.addDeleted = loadDeletionVector(file.addDv());
    this.removeDeleted = loadDeletionVector(file.removeDv());
    this.fromRow = fromRow;
    this.selection = selection == null ? null : from(selection, fromRow);
  }

  /** The narrow pass of {@code whole}'s shard: reads the columns of {@code keys} only. */
  private FileRowCursor(FileRowCursor whole, FileReadLayout keys, ShardKeys shard) {
    this.context = whole.context;
    this.version = whole.version;
    this.file = whole.file;
    this.location = whole.location;
    this.schema = whole.schema;
    this.partitionValues = whole.partitionValues;
    this.layout = keys;
    this.dataOrdinal = keys.dataOrdinal();
    this.hiddenOrdinal = keys.hiddenOrdinal();
    this.changeTypeOrdinal = keys.changeTypeOrdinal();
    this.addDeleted = whole.addDeleted;
    this.removeDeleted = whole.removeDeleted;
    this.derived = null;
    this.valuesRead = true;
    this.fromRow = whole.fromRow;
    this.untilRow = whole.untilRow;
    this.shard = shard;
  }

  public ChangeFile file() {
    return file;
  }

  /**
   * Keeps only the change rows of {@code rule}'s shard, whose positions {@code positions} gives (by
   * physical row): the others are passed over like rows that are no changes. A narrow pass over the
   * file picks the shard's rows out first, unless it would read every column anyway or the cursor's
   * rows are already decided otherwise (derived decisions, a selection): then each row's key
   * columns alone decide whether to decode the rest. Set before the first {@link #hasNext()}.
   */
  public void keepOnly(ShardRule rule, LongFunction<ChangePosition> positions) {
    if (!valuesRead) {
      throw new IllegalStateException("Only the hidden columns of " + file.path() + " are read");
    }
    FileReadLayout keys = layout.narrowedTo(rule.columnsIn(schema.logical()));
    int narrow = keys.readSchema().length();
    if (derived != null
        || selection != null
        || narrow == 0
        || narrow >= layout.readSchema().length()) {
      shard = new ShardKeys(rule, positions, schema, partitionValues, dataOrdinal);
      return;
    }
    ShardKeys narrowKeys =
        new ShardKeys(rule, positions, schema, partitionValues, keys.dataOrdinal());
    try (FileRowCursor keyPass = new FileRowCursor(this, keys, narrowKeys)) {
      selection = keyPass.keptRows();
      othersAfterSelection = keyPass.droppedSinceCurrent;
    } catch (IOException e) {
      throw KernelErrors.translate(context.table(), version, location, e);
    }
  }

  public boolean hasNext() {
    if (!prefetched) {
      if (batches == null) {
        start();
      }
      prefetched = advance();
    }
    return prefetched;
  }

  /** Moves to the next change row; read it with {@link #type()}, {@link #values()}. */
  public void next() {
    if (!hasNext()) {
      throw new IllegalStateException("No more rows in " + file.path());
    }
    prefetched = false;
    type = pendingType;
    label = type == ChangeType.CUSTOM ? pendingLabel : type.label();
    physicalRow = physicalRow(rowInBatch);
    values = pendingValues != null ? pendingValues : readValues(rowInBatch);
    pendingValues = null;
    droppedSinceCurrent = false;
    rowInBatch++;
  }

  /**
   * Whether the current row is the last change row of the file, of any shard: the position after it
   * is then the file's end, else its next physical row, as in the whole table's feed.
   */
  public boolean lastChange() {
    return !hasNext() && !droppedSinceCurrent && !othersAfterSelection;
  }

  public ChangeType type() {
    return type;
  }

  /** The current row's {@code _change_type} value (see {@link ChangeRow#label()}). */
  public String label() {
    return label;
  }

  public Object[] values() {
    return values;
  }

  /** The physical Parquet row index of the current row. */
  public long physicalRow() {
    return physicalRow;
  }

  @Override
  public void close() throws IOException {
    if (batches != null) {
      batches.close();
    }
  }

  /** Opens the file and moves to the first row to read. */
  private void start() {
    batches = open(layout.readSchema());
    batchStart = 0;
    rowInBatch = 0;
    skipTo(selection == null ? fromRow : 0);
  }

  /**
   * Reads this narrow pass to its end: the physical rows its shard keeps, ascending. After it,
   * {@link #droppedSinceCurrent} tells whether another shard's change row follows the last.
   */
  private long[] keptRows() {
    LongStream.Builder kept = LongStream.builder();
    while (hasNext()) {
      kept.add(physicalRow(rowInBatch));
      prefetched = false;
      droppedSinceCurrent = false;
      rowInBatch++;
    }
    return kept.build().toArray();
  }

  /** Positions on the next row that is a change, without consuming it. */
  private boolean advance() {
    while (true) {
      if (batch == null || rowInBatch >= batch.getSize()) {
        if (batch != null) {
          batchStart += batch.getSize();
        }
        if (!nextBatch()) {
          return false;
        }
        rowInBatch = 0;
        continue;
      }
      long row = physicalRow(rowInBatch);
      if (row >= untilRow) {
        return false;
      }
      pendingType = changeTypeOf(row, rowInBatch);
      if (pendingType != null && derived != null) {
        pendingType = derived.decide(pendingType, candidate);
      }
      if (pendingType != null && shard != null && !shardKeeps()) {
        pendingType = null;
        droppedSinceCurrent = true;
      }
      if (pendingType != null) {
        return true;
      }
      pendingValues = null;
      rowInBatch++;
    }
  }

  /** Moves to the row of index {@code from} among the rows read. */
  private void skipTo(long from) {
    while (batchStart + (batch == null ? 0 : batch.getSize()) <= from) {
      if (batch != null) {
        batchStart += batch.getSize();
      }
      if (!nextBatch()) {
        batch = null;
        return;
      }
    }
    rowInBatch = (int) (from - batchStart);
  }

  /** The physical row of the batch's row {@code rowInBatch}. */
  private long physicalRow(int rowInBatch) {
    long index = batchStart + rowInBatch;
    return selection == null ? index : selection[(int) index];
  }

  /** The rows of {@code selection} from physical row {@code fromRow} on. */
  private static long[] from(long[] selection, long fromRow) {
    int first = Arrays.binarySearch(selection, fromRow);
    first = first >= 0 ? first : -first - 1;
    return first == 0 ? selection : Arrays.copyOfRange(selection, first, selection.length);
  }

  private boolean nextBatch() {
    try {
      if (!batches.hasNext()) {
        batch = null;
        return false;
      }
      batch = batches.next();
      hiddenVectors = null;
      return true;
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), version, location, e);
    }
  }

  /** The change a physical row stands for, or null when the row is not a change. */
  private ChangeType changeTypeOf(long row, int rowInBatch) {
    switch (file.kind()) {
      case CDC:
        // Kept as written: a value other than the standard ones passes through as it is.
        pendingLabel = batch.getColumnVector(changeTypeOrdinal).getString(rowInBatch);
        return ChangeType.ofValue(pendingLabel);
      case ADDED:
        return isDeleted(addDeleted, row) ? null : ChangeType.INSERT;
      case REMOVED:
        return isDeleted(removeDeleted, row) ? null : ChangeType.DELETE;
      case DV_UPDATE:
        boolean hiddenNow = isDeleted(addDeleted, row);
        boolean hiddenBefore = isDeleted(removeDeleted, row);
        if (hiddenNow == hiddenBefore) {
          return null;
        }
        return hiddenNow ? ChangeType.DELETE : ChangeType.INSERT;
      default:
        throw new IllegalStateException("Unknown file kind " + file.kind());
    }
  }

  private static boolean isDeleted(DeletedRows deleted, long row) {
    return deleted != null && deleted.contains(row);
  }

  private Object[] readValues(int rowInBatch) {
    Object[] row = partitionValues.clone();
    try {
      for (int i = 0; i < row.length; i++) {
        int ordinal = dataOrdinal[i];
        if (ordinal >= 0) {
          ColumnVector vector = batch.getColumnVector(ordinal);
          row[i] = schema.reader(i).readNullable(vector, rowInBatch);
        }
      }
    } catch (RuntimeException e) {
      // A value that cannot be decoded (a malformed variant): name the file it is in.
      throw KernelErrors.translate(context.table(), version, location, e);
    }
    return row;
  }

  /** Whether the shard keeps the row found ahead, from its values when decoded, else its keys. */
  private boolean shardKeeps() {
    Object[] values = pendingValues;
    if (values == null) {
      try {
        values = shard.read(batch, rowInBatch);
      } catch (RuntimeException e) {
        throw KernelErrors.translate(context.table(), version, location, e);
      }
    }
    return shard.keeps(values, physicalRow(rowInBatch));
  }

  private DeletedRows loadDeletionVector(DeletionVector dv) {
    if (dv == null) {
      return null;
    }
    String location = dv.onDisk() ? dv.absolutePath(context.tableRoot()) : null;
    if (location != null) {
      TablePaths.requireInside(context, version, dv.pathOrInlineDv(), location);
    }
    try {
      return dv.load(context.engine(), context.tableRoot());
    } catch (RuntimeException e) {
      String named = location != null ? location : "the inline deletion vector of " + file.path();
      throw KernelErrors.translate(context.table(), version, named, e);
    }
  }

  /** The row {@link #advance} looks at, decoded as far as the decision needs it. */
  private final class Candidate implements DerivedRows.Candidate {

    @Override
    public Object[] values() {
      if (!valuesRead) {
        throw new IllegalStateException("Only the hidden columns of " + file.path() + " are read");
      }
      if (pendingValues == null) {
        pendingValues = readValues(rowInBatch);
      }
      return pendingValues;
    }

    @Override
    public long physicalRow() {
      return FileRowCursor.this.physicalRow(rowInBatch);
    }

    @Override
    public long hidden(int index, long whenNull) {
      if (hiddenVectors == null) {
        hiddenVectors = new ColumnVector[hiddenOrdinal.length];
      }
      ColumnVector vector = hiddenVectors[index];
      if (vector == null) {
        vector = batch.getColumnVector(hiddenOrdinal[index]);
        hiddenVectors[index] = vector;
      }
      return vector.isNullAt(rowInBatch) ? whenNull : vector.getLong(rowInBatch);
    }
  }

  private CloseableIterator<ColumnarBatch> open(StructType readSchema) {
    long size = Math.max(file.size(), 0);
    try {
      if (selection != null) {
        return SelectedParquetRows.read(context.files(), location, size, readSchema, selection);
      }
      if (!valuesRead) {
        // Only hidden columns (row tracking's longs): read column by column when they allow it.
        CloseableIterator<ColumnarBatch> longs =
            LongParquetColumns.readOrNull(context.files(), location, size, readSchema);
        if (longs != null) {
          return longs;
        }
      }
      FileStatus status = FileStatus.of(location, size, 0);
      return context
          .engine()
          .getParquetHandler()
          .readParquetFiles(KernelIterators.single(status), readSchema, Optional.empty())
          .map(read -> read.getData());
    } catch (IOException | RuntimeException e) {
      throw KernelErrors.translate(context.table(), version, location, e);
    }
  }
}
