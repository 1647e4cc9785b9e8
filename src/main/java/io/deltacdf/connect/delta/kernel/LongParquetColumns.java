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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Reads top-level 64-bit integer columns of a Parquet file, every row in order, straight from
 * parquet-mr's column readers into Kernel's long vectors: no record assembly, no converter per
 * value. Row tracking's first pass reads the materialized row id and row commit version of every
 * row of every file a version rewrites, and through Kernel's record reader that was the larger part
 * of its cost. A column the file lacks reads as nulls, as with Kernel's reader.
 */
public final class LongParquetColumns implements CloseableIterator<ColumnarBatch> {

  private static final int BATCH_ROWS = 4096;

  /** The column readers hand no value to a converter: these take none. */
  private static final GroupConverter NO_CONVERTER =
      new GroupConverter() {
        private final PrimitiveConverter primitive = new PrimitiveConverter() {};

        @Override
        public Converter getConverter(int fieldIndex) {
          return primitive;
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
      };

  private final ParquetFileReader file;
  private final String location;
  private final StructType readSchema;
  private final MessageType requested;

  /** Per column of {@link #readSchema}, the file's column, or null when the file lacks it. */
  private final ColumnDescriptor[] columns;

  private final ColumnReader[] readers;
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
    this.readers = new ColumnReader[columns.length];
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
    try {
      while (rowsLeftInGroup == 0) {
        openNextRowGroup();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Error reading Parquet file " + location, e);
    }
    int size = (int) Math.min(BATCH_ROWS, rowsLeftInGroup);
    ColumnVector[] vectors = new ColumnVector[columns.length];
    for (int i = 0; i < columns.length; i++) {
      vectors[i] = read(i, size);
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
    PageReadStore pages = file.readNextRowGroup();
    if (pages == null) {
      throw new IllegalStateException(
          "The row groups of " + location + " hold fewer rows than its footer counts");
    }
    ColumnReadStoreImpl store =
        new ColumnReadStoreImpl(
            pages, NO_CONVERTER, requested, file.getFooter().getFileMetaData().getCreatedBy());
    for (int i = 0; i < columns.length; i++) {
      readers[i] = columns[i] == null ? null : store.getColumnReader(columns[i]);
    }
    rowsLeftInGroup = pages.getRowCount();
  }

  private ColumnVector read(int column, int size) {
    long[] values = new long[size];
    boolean[] nulls = null;
    ColumnReader reader = readers[column];
    if (reader == null) {
      nulls = new boolean[size];
      Arrays.fill(nulls, true);
    } else {
      int defined = columns[column].getMaxDefinitionLevel();
      for (int row = 0; row < size; row++) {
        if (reader.getCurrentDefinitionLevel() == defined) {
          values[row] = reader.getLong();
        } else {
          if (nulls == null) {
            nulls = new boolean[size];
          }
          nulls[row] = true;
        }
        reader.consume();
      }
    }
    return new DefaultLongVector(LongType.LONG, size, Optional.ofNullable(nulls), values);
  }
}
