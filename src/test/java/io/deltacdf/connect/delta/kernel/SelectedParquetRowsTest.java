package io.deltacdf.connect.delta.kernel;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.hadoopio.HadoopFileIO;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.Metadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reading some rows of a Parquet file gives exactly the rows a full read by Kernel gives at those
 * positions, for files of many small row groups and pages, with and without dictionaries, and
 * columns of every kind: strings, nested structs, arrays and maps, decimals of each physical width,
 * timestamps, dates, binaries, nulls at every level, a column the file lacks and the row index; and
 * columns found by Parquet field id, as with column mapping's id mode. Flat schemas, read page by
 * page, are checked also on files of Parquet's version 2 data pages and encodings.
 */
class SelectedParquetRowsTest {

  private static final int ROWS = 2_500;
  private static final int BATCH_SIZE = 64;

  private static final StructType NESTED =
      new StructType().add("a", IntegerType.INTEGER).add("b", StringType.STRING);
  private static final StructType ELEMENT =
      new StructType().add("x", IntegerType.INTEGER).add("y", StringType.STRING);

  private static final StructType READ_SCHEMA =
      new StructType()
          .add("id", LongType.LONG)
          .add("s", StringType.STRING)
          .add("st", NESTED)
          .add("arr", new ArrayType(ELEMENT, true))
          .add("m", new MapType(StringType.STRING, LongType.LONG, true))
          .add("d1", new DecimalType(9, 2))
          .add("d2", new DecimalType(15, 3))
          .add("d3", new DecimalType(20, 4))
          .add("ts", TimestampType.TIMESTAMP)
          .add("dt", DateType.DATE)
          .add("flag", BooleanType.BOOLEAN)
          .add("dbl", DoubleType.DOUBLE)
          .add("bin", BinaryType.BINARY)
          .add("missing", IntegerType.INTEGER)
          .add(StructField.DEFAULT_ROW_INDEX_COLUMN);

  /** The columns of {@link #READ_SCHEMA} that are neither nested nor repeated. */
  private static final StructType FLAT_SCHEMA =
      new StructType(
          READ_SCHEMA.fields().stream()
              .filter(field -> !List.of("st", "arr", "m").contains(field.getName()))
              .toList());

  @TempDir static Path dir;

  private static FileIO files;
  private static DefaultEngine engine;
  private static String dictionaryFile;
  private static String plainFile;
  private static String dictionaryV2File;
  private static String plainV2File;
  private static String fieldIdFile;

  @BeforeAll
  static void writeFiles() throws IOException {
    Configuration configuration = new Configuration();
    configuration.set(
        "delta.kernel.default.parquet.reader.batch-size", Integer.toString(BATCH_SIZE));
    files = new HadoopFileIO(configuration);
    engine = DefaultEngine.create(files);
    dictionaryFile = write("dictionary", true, "v1");
    plainFile = write("plain", false, "v1");
    dictionaryV2File = write("dictionary-v2", true, "v2");
    plainV2File = write("plain-v2", false, "v2");
    fieldIdFile = writeWithFieldIds();
  }

  /** A file whose columns carry Parquet field ids, as column mapping's id mode writes them. */
  private static String writeWithFieldIds() throws IOException {
    Path out = dir.resolve("field-ids");
    spark()
        .range(0, ROWS, 1, 1)
        .selectExpr(
            "id",
            "CASE WHEN id % 7 = 0 THEN NULL ELSE concat('s-', id) END AS s",
            "named_struct('a', CAST(id * 3 AS INT), 'b', CAST(id AS STRING)) AS st")
        .select(
            functions.col("id").as("id", fieldId(1)),
            functions.col("s").as("s", fieldId(2)),
            functions
                .struct(
                    functions.col("st.a").as("a", fieldId(4)),
                    functions.col("st.b").as("b", fieldId(5)))
                .as("st", fieldId(3)))
        .write()
        .option("parquet.block.size", "1024")
        .option("parquet.page.row.count.limit", "37")
        .parquet(out.toString());
    return ParquetTestFiles.parquetFileIn(out);
  }

  private static Metadata fieldId(long id) {
    return Metadata.fromJson("{\"parquet.field.id\": " + id + "}");
  }

  private static StructField byId(String name, DataType type, long id) {
    return new StructField(
        name, type, true, FieldMetadata.builder().putLong("parquet.field.id", id).build());
  }

  /**
   * One file of {@link #ROWS} rows in row groups of about a hundred rows, pages of 37 rows, in data
   * pages of Parquet's {@code writerVersion}.
   */
  private static String write(String name, boolean dictionary, String writerVersion)
      throws IOException {
    return ParquetTestFiles.writeSmallRowGroups(
        spark()
            .range(0, ROWS, 1, 1)
            .selectExpr(
                "id",
                "CASE WHEN id % 7 = 0 THEN NULL ELSE concat('s-', id, repeat('x', id % 13)) END AS s",
                "CASE WHEN id % 11 = 0 THEN NULL ELSE named_struct('a', CAST(id * 3 AS INT), 'b',"
                    + " CASE WHEN id % 5 = 0 THEN NULL ELSE CAST(id AS STRING) END) END AS st",
                "CASE WHEN id % 9 = 0 THEN NULL ELSE filter(transform(sequence(0, CAST(id % 4 AS INT)),"
                    + " i -> named_struct('x', i, 'y', CASE WHEN i = 1 THEN NULL ELSE concat('y', id)"
                    + " END)), e -> id % 10 != 1) END AS arr",
                "CASE WHEN id % 6 = 0 THEN NULL ELSE map_from_arrays(transform(sequence(0, CAST(id % 3"
                    + " AS INT)), i -> concat('k', i)), transform(sequence(0, CAST(id % 3 AS INT)),"
                    + " i -> CASE WHEN i = 2 THEN NULL ELSE id * i END)) END AS m",
                "CAST(id / 7 AS DECIMAL(9, 2)) AS d1",
                "CASE WHEN id % 8 = 0 THEN NULL ELSE CAST(id * 1234.567 AS DECIMAL(15, 3)) END AS d2",
                "CAST(id * -12345.6789 AS DECIMAL(20, 4)) AS d3",
                "CASE WHEN id % 4 = 0 THEN NULL ELSE timestamp_seconds(1700000000 + id * 37) END AS ts",
                "date_add(DATE'2020-01-01', CAST(id AS INT)) AS dt",
                "CASE WHEN id % 13 = 0 THEN NULL ELSE id % 3 = 0 END AS flag",
                "id / 3.0D AS dbl",
                "CASE WHEN id % 5 = 0 THEN NULL ELSE CAST(concat('b', id % 17) AS BINARY) END AS bin"),
        dir.resolve(name),
        dictionary,
        writerVersion);
  }

  private static String file(String name) {
    return switch (name) {
      case "dictionary" -> dictionaryFile;
      case "plain" -> plainFile;
      case "dictionary-v2" -> dictionaryV2File;
      case "plain-v2" -> plainV2File;
      default -> throw new IllegalArgumentException(name);
    };
  }

  private static StructType schema(String name) {
    return name.equals("flat") ? FLAT_SCHEMA : READ_SCHEMA;
  }

  @Test
  void theFilesHaveManyRowGroupsAndFlatColumnsAreReadPageByPage() throws IOException {
    for (String file : List.of(dictionaryFile, plainFile, dictionaryV2File, plainV2File)) {
      assertThat(ParquetTestFiles.rowGroupSizes(file)).hasSizeGreaterThan(10);
      long size = Files.size(Path.of(file));
      assertThat(SelectedParquetRows.readsPageByPage(files, file, size, FLAT_SCHEMA)).isTrue();
      assertThat(SelectedParquetRows.readsPageByPage(files, file, size, READ_SCHEMA)).isFalse();
    }
    assertThat(ParquetTestFiles.encodingsOf(dictionaryV2File)).contains(Encoding.RLE_DICTIONARY);
    assertThat(ParquetTestFiles.encodingsOf(plainV2File))
        .contains(Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_BYTE_ARRAY);
  }

  @Test
  void noRowOpensNoFile() throws IOException {
    try (CloseableIterator<ColumnarBatch> batches =
        SelectedParquetRows.read(
            files, dir.resolve("absent.parquet").toString(), 0, READ_SCHEMA, new long[0])) {
      assertThat(batches.hasNext()).isFalse();
    }
  }

  @ParameterizedTest(name = "{0} file, {1} schema")
  @CsvSource({
    "dictionary, nested",
    "plain, nested",
    "dictionary, flat",
    "plain, flat",
    "dictionary-v2, flat",
    "plain-v2, flat"
  })
  void everyRowAndTheEdgesOfEachRowGroup(String fileName, String schemaName) throws IOException {
    String file = file(fileName);
    StructType schema = schema(schemaName);
    List<List<Object>> full = readAll(file, schema);
    assertSelectedRows(file, schema, full, LongStream.range(0, ROWS).toArray());
    List<Long> edges = new ArrayList<>();
    long start = 0;
    for (long size : ParquetTestFiles.rowGroupSizes(file)) {
      edges.add(start);
      edges.add(start + size - 1);
      start += size;
    }
    assertSelectedRows(
        file, schema, full, edges.stream().mapToLong(Long::longValue).distinct().toArray());
    assertSelectedRows(file, schema, full, new long[] {0});
    assertSelectedRows(file, schema, full, new long[] {ROWS - 1});
    // Every row of the second row group and none of the others.
    long second = ParquetTestFiles.rowGroupSizes(file)[0];
    assertSelectedRows(
        file,
        schema,
        full,
        LongStream.range(second, second + ParquetTestFiles.rowGroupSizes(file)[1]).toArray());
  }

  @ParameterizedTest(name = "{0} file, {1} schema, a share of {2} of the rows")
  @CsvSource({
    "plain, nested, 0.001",
    "dictionary, nested, 0.01",
    "plain, nested, 0.2",
    "dictionary, nested, 0.5",
    "plain, flat, 0.95",
    "dictionary, flat, 0.05",
    "plain-v2, flat, 0.2",
    "dictionary-v2, flat, 0.01",
    "dictionary-v2, flat, 0.5"
  })
  void randomRows(String fileName, String schemaName, double share) throws IOException {
    Random random = new Random(Double.hashCode(share));
    String file = file(fileName);
    StructType schema = schema(schemaName);
    long[] rows = LongStream.range(0, ROWS).filter(row -> random.nextDouble() < share).toArray();
    assertSelectedRows(file, schema, readAll(file, schema), rows);
  }

  /** Columns found by field id, under names the file does not have (column mapping's id mode). */
  @Test
  void columnsFoundByFieldId() throws IOException {
    StructType schema =
        new StructType()
            .add(byId("col-1", LongType.LONG, 1))
            .add(byId("col-2", StringType.STRING, 2))
            .add(
                byId(
                    "col-3",
                    new StructType()
                        .add(byId("col-4", IntegerType.INTEGER, 4))
                        .add(byId("col-5", StringType.STRING, 5)),
                    3));
    List<List<Object>> full = readAll(fieldIdFile, schema);
    assertThat(full.get(2498)).isEqualTo(List.of(2498L, "s-2498", List.of(3 * 2498, "2498")));
    Random random = new Random(7);
    long[] rows = LongStream.range(0, ROWS).filter(row -> random.nextInt(9) == 0).toArray();
    assertSelectedRows(fieldIdFile, schema, full, rows);
  }

  private static void assertSelectedRows(String file, List<List<Object>> full, long[] rows)
      throws IOException {
    assertSelectedRows(file, READ_SCHEMA, full, rows);
  }

  private static void assertSelectedRows(
      String file, StructType schema, List<List<Object>> full, long[] rows) throws IOException {
    List<List<Object>> expected = new ArrayList<>();
    for (long row : rows) {
      expected.add(full.get((int) row));
    }
    List<List<Object>> selected = new ArrayList<>();
    try (CloseableIterator<ColumnarBatch> batches =
        SelectedParquetRows.read(files, file, Files.size(Path.of(file)), schema, rows)) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        assertThat(batch.getSize()).isBetween(1, BATCH_SIZE);
        selected.addAll(rowsOf(batch));
      }
    }
    assertThat(selected).as("rows %s", Arrays.toString(rows)).isEqualTo(expected);
  }

  private static List<List<Object>> readAll(String file, StructType schema) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    ParquetTestFiles.readWithKernel(engine, file, schema, batch -> rows.addAll(rowsOf(batch)));
    assertThat(rows).hasSize(ROWS);
    return rows;
  }

  private static List<List<Object>> rowsOf(ColumnarBatch batch) {
    List<List<Object>> rows = new ArrayList<>();
    for (int row = 0; row < batch.getSize(); row++) {
      List<Object> values = new ArrayList<>();
      for (int column = 0; column < batch.getSchema().length(); column++) {
        values.add(value(batch.getColumnVector(column), row));
      }
      rows.add(values);
    }
    return rows;
  }

  /** A value as plain Java objects that compare by value. */
  private static Object value(ColumnVector vector, int row) {
    if (vector.isNullAt(row)) {
      return null;
    }
    DataType type = vector.getDataType();
    if (type instanceof StructType struct) {
      List<Object> fields = new ArrayList<>();
      for (int i = 0; i < struct.length(); i++) {
        fields.add(value(vector.getChild(i), row));
      }
      return fields;
    }
    if (type instanceof ArrayType) {
      ArrayValue array = vector.getArray(row);
      return elements(array.getElements(), array.getSize());
    }
    if (type instanceof MapType) {
      MapValue map = vector.getMap(row);
      return List.of(
          elements(map.getKeys(), map.getSize()), elements(map.getValues(), map.getSize()));
    }
    if (type instanceof LongType || type instanceof TimestampType) {
      return vector.getLong(row);
    }
    if (type instanceof IntegerType || type instanceof DateType) {
      return vector.getInt(row);
    }
    if (type instanceof StringType) {
      return vector.getString(row);
    }
    if (type instanceof DecimalType) {
      return vector.getDecimal(row);
    }
    if (type instanceof BooleanType) {
      return vector.getBoolean(row);
    }
    if (type instanceof DoubleType) {
      return vector.getDouble(row);
    }
    if (type instanceof BinaryType) {
      return HexFormat.of().formatHex(vector.getBinary(row));
    }
    throw new IllegalArgumentException("No test value for " + type);
  }

  private static List<Object> elements(ColumnVector vector, int size) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      values.add(value(vector, i));
    }
    return values;
  }
}
