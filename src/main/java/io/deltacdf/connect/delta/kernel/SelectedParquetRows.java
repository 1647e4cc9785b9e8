package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.internal.parquet.ParquetFileReader.BatchReadSupport;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.parquet.VersionParser;
import org.apache.parquet.VersionParser.ParsedVersion;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter.RecordFilter;
import org.apache.parquet.filter.UnboundRecordFilter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads only some rows of a Parquet file, by physical row index, decoded by Kernel's own column
 * converters into the batches Kernel's Parquet reader would give for the same schema. Row groups
 * holding no selected row are not read. Inside a row group, the columns of a flat schema are read
 * page by page ({@link FlatColumnPages}), passing over the other rows' values together; nested
 * columns go through parquet-mr's filtered record reader, which steps over the other rows one by
 * one. A version of a table with row tracking rewrites whole files to change a few rows: the second
 * read of such a file decodes its changed rows only.
 */
public final class SelectedParquetRows implements CloseableIterator<ColumnarBatch> {

  /** Kernel's setting of its Parquet reader's batch size, and its default. */
  private static final String BATCH_SIZE = "delta.kernel.default.parquet.reader.batch-size";

  private static final int DEFAULT_BATCH_SIZE = 1024;

  private final ParquetFileReader file;
  private final String location;
  private final BatchReadSupport support;
  private final RecordMaterializer<Object> materializer;
  private final MessageColumnIO columns;
  private final MessageType requested;
  private final ParsedVersion writer;
  private final List<BlockMetaData> rowGroups;
  private final long[] rows;
  private final int batchSize;

  /** The index in {@link #rows} of the next row to read. */
  private int next;

  /** The index of the row group {@link #file} reads or skips next. */
  private int nextRowGroup;

  /** The physical index of the first row of the row group {@link #records} reads. */
  private long rowGroupStart;

  private long rowGroupEnd;

  /** Whether every column read is top-level and not repeated, so can be read page by page. */
  private final boolean flat;

  /** The columns of the current row group read page by page; null when {@link #records} is. */
  private FlatColumnPages[] columnPages;

  private RecordReader<Object> records;

  /** The physical row, relative to its row group, that the record filter is asked about next. */
  private long rowInGroup;

  private SelectedParquetRows(
      ParquetFileReader file, String location, StructType readSchema, long[] rows, int batchSize) {
    this.file = file;
    this.location = location;
    this.rows = rows;
    this.batchSize = batchSize;
    this.rowGroups = file.getRowGroups();
    MessageType fileSchema = file.getFooter().getFileMetaData().getSchema();
    this.support = new BatchReadSupport(batchSize, readSchema);
    ReadSupport.ReadContext context =
        support.init(new InitContext(ParquetFiles.NO_SETTINGS, Map.of(), fileSchema));
    MessageType requested = context.getRequestedSchema();
    file.setRequestedSchema(requested);
    this.materializer =
        support.prepareForRead(
            ParquetFiles.NO_SETTINGS,
            file.getFooter().getFileMetaData().getKeyValueMetaData(),
            fileSchema,
            context);
    this.columns =
        new ColumnIOFactory(file.getFooter().getFileMetaData().getCreatedBy())
            .getColumnIO(requested, fileSchema, true);
    this.requested = requested;
    this.flat = isFlat(requested);
    this.writer = writerOf(file.getFooter().getFileMetaData().getCreatedBy());
  }

  /**
   * Whether the columns of {@code readSchema} in the file at {@code location} are read page by
   * page: whether they all are top-level and not repeated.
   */
  static boolean readsPageByPage(
      FileIO files, String location, long knownSize, StructType readSchema) throws IOException {
    return ParquetFiles.open(
        files,
        location,
        knownSize,
        file -> {
          try (SelectedParquetRows rows =
              new SelectedParquetRows(file, location, readSchema, new long[0], 1)) {
            return rows.flat;
          }
        });
  }

  /** The file's writer, as parquet-mr's column readers take it: null when not known. */
  private static ParsedVersion writerOf(String createdBy) {
    try {
      return VersionParser.parse(createdBy);
    } catch (RuntimeException | VersionParser.VersionParseException e) {
      return null;
    }
  }

  private static boolean isFlat(MessageType requested) {
    for (Type field : requested.getFields()) {
      if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The rows {@code rows} (physical indexes, ascending, no repeats) of the file at {@code
   * location}, with the columns of {@code readSchema}, in batches of up to Kernel's batch size. No
   * row: the file is not opened.
   */
  public static CloseableIterator<ColumnarBatch> read(
      FileIO files, String location, long knownSize, StructType readSchema, long[] rows)
      throws IOException {
    if (rows.length == 0) {
      return KernelIterators.of(List.<ColumnarBatch>of().iterator());
    }
    int batchSize = files.getConf(BATCH_SIZE).map(Integer::valueOf).orElse(DEFAULT_BATCH_SIZE);
    return ParquetFiles.open(
        files,
        location,
        knownSize,
        file -> new SelectedParquetRows(file, location, readSchema, rows, batchSize));
  }

  @Override
  public boolean hasNext() {
    return next < rows.length;
  }

  @Override
  public ColumnarBatch next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    int size = 0;
    try {
      while (size < batchSize && next < rows.length) {
        long row = rows[next];
        if (rowGroupEnd == 0 || row >= rowGroupEnd) {
          openRowGroupOf(row);
        }
        if (columnPages != null) {
          GroupConverter root = materializer.getRootConverter();
          root.start();
          for (FlatColumnPages column : columnPages) {
            column.write(row - rowGroupStart);
          }
          root.end();
        } else if (records.read() == null) {
          // The read passes over the rows before the selected one: the filter matches it only.
          throw new IllegalStateException(
              "Row " + row + " is past the end of its row group in " + location);
        }
        support.finalizeCurrentRow(row);
        next++;
        size++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Error reading Parquet file " + location, e);
    }
    return support.getDataAsColumnarBatch(size);
  }

  @Override
  public void close() throws IOException {
    file.close();
  }

  private void openRowGroupOf(long row) throws IOException {
    if (rowGroupEnd > 0) {
      rowGroupStart = rowGroupEnd;
    }
    while (nextRowGroup < rowGroups.size()) {
      BlockMetaData rowGroup = rowGroups.get(nextRowGroup);
      long end = rowGroupStart + rowGroup.getRowCount();
      if (row < end) {
        PageReadStore pages = file.readNextRowGroup();
        nextRowGroup++;
        rowGroupEnd = end;
        rowInGroup = 0;
        if (flat) {
          records = null;
          columnPages = columnPagesOf(pages);
        } else {
          columnPages = null;
          records = columns.getRecordReader(pages, materializer, new Selection());
        }
        return;
      }
      file.skipNextRowGroup();
      nextRowGroup++;
      rowGroupStart = end;
    }
    throw new IllegalStateException("Row " + row + " is past the end of " + location);
  }

  private FlatColumnPages[] columnPagesOf(PageReadStore pages) throws IOException {
    GroupConverter root = materializer.getRootConverter();
    List<ColumnDescriptor> descriptors = requested.getColumns();
    FlatColumnPages[] read = new FlatColumnPages[descriptors.size()];
    for (int i = 0; i < read.length; i++) {
      ColumnDescriptor column = descriptors.get(i);
      PrimitiveConverter converter =
          root.getConverter(requested.getFieldIndex(column.getPath()[0])).asPrimitiveConverter();
      read[i] = new FlatColumnPages(column, pages, converter, writer);
    }
    return read;
  }

  /**
   * Matches the row {@link #next} names. parquet-mr asks about each row of the row group once, in
   * order, before reading or passing over it.
   */
  private final class Selection implements UnboundRecordFilter, RecordFilter {

    @Override
    public RecordFilter bind(Iterable<org.apache.parquet.column.ColumnReader> readers) {
      return this;
    }

    @Override
    public boolean isMatch() {
      return rowGroupStart + rowInGroup++ == rows[next];
    }
  }
}
