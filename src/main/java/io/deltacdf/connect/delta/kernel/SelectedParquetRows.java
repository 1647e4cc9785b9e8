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
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/**
 * Reads only some rows of a Parquet file, by physical row index, decoded by Kernel's own column
 * converters into the batches Kernel's Parquet reader would give for the same schema. Row groups
 * holding no selected row are not read; inside a row group, parquet-mr's filtered record reader
 * passes over the other rows' values without handing them to the converters. A version of a table
 * with row tracking rewrites whole files to change a few rows: the second read of such a file
 * decodes its changed rows only.
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
        if (records == null || row >= rowGroupEnd) {
          openRowGroupOf(row);
        }
        // Passes over the rows before the selected one; the filter matches rows[next] only.
        if (records.read() == null) {
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
    if (records != null) {
      rowGroupStart = rowGroupEnd;
    }
    while (nextRowGroup < rowGroups.size()) {
      long end = rowGroupStart + rowGroups.get(nextRowGroup).getRowCount();
      if (row < end) {
        PageReadStore pages = file.readNextRowGroup();
        nextRowGroup++;
        rowGroupEnd = end;
        rowInGroup = 0;
        records = columns.getRecordReader(pages, materializer, new Selection());
        return;
      }
      file.skipNextRowGroup();
      nextRowGroup++;
      rowGroupStart = end;
    }
    throw new IllegalStateException("Row " + row + " is past the end of " + location);
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
