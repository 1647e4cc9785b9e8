package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.internal.data.DefaultColumnarBatch;
import io.delta.kernel.defaults.internal.data.vector.DefaultLongVector;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Reads top-level 64-bit integer columns of a Parquet file, every row in order, page by page into
 * Kernel's long vectors: no record assembly, no converter per value, and plain values taken
 * straight from the page's bytes. Row tracking's first pass reads the materialized row id and row
 * commit version of every row of every file a version rewrites, and through Kernel's record reader
 * that was the larger part of its cost. A column the file lacks reads as nulls, as with Kernel's
 * reader. Pages of other encodings are decoded by parquet-mr's own value readers.
 */
public final class LongParquetColumns implements CloseableIterator<ColumnarBatch> {

  private static final int BATCH_ROWS = 4096;

  private final ParquetFileReader file;
  private final String location;
  private final StructType readSchema;
  private final MessageType requested;

  /** Per column of {@link #readSchema}, the file's column, or null when the file lacks it. */
  private final ColumnDescriptor[] columns;

  /** Per column of {@link #readSchema}, its pages in the current row group, or null. */
  private final LongPages[] pages;

  private long rowsLeft;
  private long rowsLeftInGroup;

  private LongParquetColumns(
      ParquetFileReader file,
      String location,
      StructType readSchema,
      MessageType requested,
      ColumnDescriptor[] columns) {
    this.file = file;
    this.location = location;
    this.readSchema = readSchema;
    this.requested = requested;
    this.columns = columns;
    this.pages = new LongPages[columns.length];
    this.rowsLeft = file.getRecordCount();
    file.setRequestedSchema(requested);
  }

  /**
   * The columns of {@code readSchema} of the file at {@code location}, or null when one of them is
   * not a 64-bit integer, or the file holds it otherwise than as a top-level INT64 column: Kernel's
   * reader then reads the file.
   */
  public static CloseableIterator<ColumnarBatch> readOrNull(
      FileIO files, String location, long knownSize, StructType readSchema) throws IOException {
    for (StructField field : readSchema.fields()) {
      if (!(field.getDataType() instanceof LongType)) {
        return null;
      }
    }
    return ParquetFiles.open(
        files, location, knownSize, file -> readOrNull(file, location, readSchema));
  }

  private static LongParquetColumns readOrNull(
      ParquetFileReader file, String location, StructType readSchema) throws IOException {
    MessageType fileSchema = file.getFooter().getFileMetaData().getSchema();
    ColumnDescriptor[] columns = new ColumnDescriptor[readSchema.length()];
    List<Type> requested = new ArrayList<>();
    for (int i = 0; i < columns.length; i++) {
      String name = readSchema.at(i).getName();
      if (!fileSchema.containsField(name)) {
        continue;
      }
      Type type = fileSchema.getType(name);
      if (!type.isPrimitive()
          || type.isRepetition(Type.Repetition.REPEATED)
          || type.asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.INT64) {
        file.close();
        return null;
      }
      columns[i] = fileSchema.getColumnDescription(new String[] {name});
      requested.add(type);
    }
    return new LongParquetColumns(
        file, location, readSchema, new MessageType(fileSchema.getName(), requested), columns);
  }

  @Override
  public boolean hasNext() {
    return rowsLeft > 0;
  }

  @Override
  public ColumnarBatch next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    int size;
    ColumnVector[] vectors = new ColumnVector[columns.length];
    try {
      while (rowsLeftInGroup == 0) {
        openNextRowGroup();
      }
      size = (int) Math.min(BATCH_ROWS, rowsLeftInGroup);
      for (int i = 0; i < columns.length; i++) {
        vectors[i] = read(i, size);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Error reading Parquet file " + location, e);
    }
    rowsLeftInGroup -= size;
    rowsLeft -= size;
    return new DefaultColumnarBatch(size, readSchema, vectors);
  }

  @Override
  public void close() throws IOException {
    file.close();
  }

  private void openNextRowGroup() throws IOException {
    if (requested.getFieldCount() == 0) {
      // Every column is missing: nulls, as many as the file's rows, with no page read.
      rowsLeftInGroup = rowsLeft;
      return;
    }
    PageReadStore rowGroup = file.readNextRowGroup();
    if (rowGroup == null) {
      throw new IllegalStateException(
          "The row groups of " + location + " hold fewer rows than its footer counts");
    }
    for (int i = 0; i < columns.length; i++) {
      pages[i] = columns[i] == null ? null : new LongPages(columns[i], rowGroup);
    }
    rowsLeftInGroup = rowGroup.getRowCount();
  }

  private ColumnVector read(int column, int size) throws IOException {
    long[] values = new long[size];
    boolean[] nulls = null;
    if (pages[column] == null) {
      nulls = new boolean[size];
      Arrays.fill(nulls, true);
    } else {
      nulls = pages[column].read(values, size);
    }
    return new DefaultLongVector(LongType.LONG, size, Optional.ofNullable(nulls), values);
  }

  /** One column's pages in one row group, each decoded whole as it is reached. */
  private static final class LongPages {
    private final ColumnDescriptor column;
    private final PageReader reader;
    private final Dictionary dictionary;

    /** The dictionary's values by id, decoded once. */
    private final long[] dictionaryValues;

    private long[] pageValues = new long[0];
    private boolean[] pageDefined = new boolean[0];
    private boolean pageHasNulls;
    private int pageSize;
    private int nextInPage;

    LongPages(ColumnDescriptor column, PageReadStore rowGroup) throws IOException {
      this.column = column;
      this.reader = rowGroup.getPageReader(column);
      DictionaryPage dictionaryPage = reader.readDictionaryPage();
      this.dictionary =
          dictionaryPage == null
              ? null
              : dictionaryPage.getEncoding().initDictionary(column, dictionaryPage);
      this.dictionaryValues = dictionary == null ? null : decode(dictionary);
    }

    /** Fills {@code values} with the next {@code size} rows; their nulls, or null for none. */
    boolean[] read(long[] values, int size) throws IOException {
      boolean[] nulls = null;
      int filled = 0;
      while (filled < size) {
        if (nextInPage == pageSize) {
          nextPage();
        }
        int count = Math.min(size - filled, pageSize - nextInPage);
        System.arraycopy(pageValues, nextInPage, values, filled, count);
        if (pageHasNulls) {
          if (nulls == null) {
            nulls = new boolean[size];
          }
          for (int i = 0; i < count; i++) {
            nulls[filled + i] = !pageDefined[nextInPage + i];
          }
        }
        nextInPage += count;
        filled += count;
      }
      return nulls;
    }

    private void nextPage() throws IOException {
      DataPage page = reader.readPage();
      if (page == null) {
        throw new IllegalStateException("The pages of column " + column + " end before its rows");
      }
      int size = page.getValueCount();
      if (pageValues.length < size) {
        pageValues = new long[size];
        pageDefined = new boolean[size];
      }
      DefinitionLevels.PageValues read = DefinitionLevels.decode(column, page, pageDefined);
      pageHasNulls = read.hasNulls();
      LongSupplier decoded = values(read.encoding(), read.values(), size);
      for (int i = 0; i < size; i++) {
        pageValues[i] = pageDefined[i] ? decoded.getAsLong() : 0;
      }
      pageSize = size;
      nextInPage = 0;
    }

    /** The page's values, one by one: plain ones read from its bytes directly. */
    private LongSupplier values(Encoding encoding, ByteBufferInputStream data, int size)
        throws IOException {
      if (encoding == Encoding.PLAIN) {
        ByteBuffer plain = data.slice(data.available()).order(ByteOrder.LITTLE_ENDIAN);
        return plain::getLong;
      }
      ValuesReader reader;
      if (encoding.usesDictionary()) {
        if (dictionary == null) {
          throw new IllegalStateException(
              "A page of column " + column + " uses a dictionary its row group lacks");
        }
        reader = encoding.getDictionaryBasedValuesReader(column, ValuesType.VALUES, dictionary);
        reader.initFromPage(size, data);
        return () -> dictionaryValues[reader.readValueDictionaryId()];
      }
      reader = encoding.getValuesReader(column, ValuesType.VALUES);
      reader.initFromPage(size, data);
      return reader::readLong;
    }

    private static long[] decode(Dictionary dictionary) {
      long[] values = new long[dictionary.getMaxId() + 1];
      for (int id = 0; id < values.length; id++) {
        values[id] = dictionary.decodeToLong(id);
      }
      return values;
    }
  }
}
