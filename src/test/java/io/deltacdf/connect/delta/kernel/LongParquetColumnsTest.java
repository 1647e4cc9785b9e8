package io.deltacdf.connect.delta.kernel;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.hadoopio.HadoopFileIO;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading long columns page by page gives what Kernel's reader gives for the same schema, row for
 * row: a required column, a nullable one with nulls, and a column the file lacks, across many row
 * groups and pages, plain and with dictionaries in data pages of version 1, and with dictionaries
 * and delta encoding in pages of version 2; and it declines what it does not read, so that Kernel's
 * reader reads it.
 */
class LongParquetColumnsTest {

  private static final int ROWS = 2_500;

  /** Row tracking's materialized column names carry dashes; so do these. */
  private static final StructType READ_SCHEMA =
      new StructType()
          .add("row-id", LongType.LONG)
          .add("commit-version", LongType.LONG)
          .add("missing", LongType.LONG);

  /** An encoding each test file must use, so that each decoding path is taken. */
  private static final Map<String, Encoding> ENCODINGS =
      Map.of(
          "dictionary", Encoding.PLAIN_DICTIONARY,
          "plain", Encoding.PLAIN,
          "dictionary-v2", Encoding.RLE_DICTIONARY,
          "delta-v2", Encoding.DELTA_BINARY_PACKED);

  @TempDir static Path dir;

  private static FileIO files;
  private static DefaultEngine engine;
  private static String dictionaryFile;
  private static String plainFile;
  private static String dictionaryV2File;
  private static String deltaV2File;

  @BeforeAll
  static void writeFiles() throws IOException {
    files = new HadoopFileIO(new Configuration());
    engine = DefaultEngine.create(files);
    dictionaryFile = write("dictionary", true, "v1");
    plainFile = write("plain", false, "v1");
    dictionaryV2File = write("dictionary-v2", true, "v2");
    deltaV2File = write("delta-v2", false, "v2");
  }

  /** {@link #ROWS} rows in row groups of about a hundred rows, pages of 37 rows. */
  private static String write(String name, boolean dictionary, String writerVersion)
      throws IOException {
    return ParquetTestFiles.writeSmallRowGroups(
        spark()
            .range(0, ROWS, 1, 1)
            .selectExpr(
                "id * 7 AS `row-id`",
                "CASE WHEN id % 3 = 0 THEN NULL ELSE id % 5 END AS `commit-version`",
                "CAST(id AS INT) AS narrow",
                "concat('s-', id) AS s"),
        dir.resolve(name),
        dictionary,
        writerVersion);
  }

  @ParameterizedTest
  @ValueSource(strings = {"dictionary", "plain", "dictionary-v2", "delta-v2"})
  void givesKernelsRows(String encoding) throws IOException {
    String file =
        switch (encoding) {
          case "dictionary" -> dictionaryFile;
          case "plain" -> plainFile;
          case "dictionary-v2" -> dictionaryV2File;
          default -> deltaV2File;
        };
    assertThat(ParquetTestFiles.encodingsOf(file)).contains(ENCODINGS.get(encoding));
    assertThat(ParquetTestFiles.rowGroupSizes(file)).hasSizeGreaterThan(10);
    List<List<Long>> kernel = readWithKernel(file, READ_SCHEMA);
    assertThat(kernel).hasSize(ROWS);
    assertThat(kernel.get(3)).containsExactly(21L, null, null);
    assertThat(kernel.get(4)).containsExactly(28L, 4L, null);
    assertThat(read(file, READ_SCHEMA)).isEqualTo(kernel);
  }

  @Test
  void aFileWithNoneOfTheColumnsGivesNulls() throws IOException {
    StructType missing = new StructType().add("a", LongType.LONG).add("b", LongType.LONG);
    List<List<Long>> rows = read(plainFile, missing);
    assertThat(rows).hasSize(ROWS).allSatisfy(row -> assertThat(row).containsOnlyNulls());
  }

  @Test
  void declinesWhatItDoesNotRead() throws IOException {
    long size = Files.size(Path.of(plainFile));
    StructType notLong = new StructType().add("s", StringType.STRING);
    StructType intInFile = new StructType().add("narrow", LongType.LONG);
    assertThat(LongParquetColumns.readOrNull(files, plainFile, size, notLong)).isNull();
    assertThat(LongParquetColumns.readOrNull(files, plainFile, size, intInFile)).isNull();
  }

  private static List<List<Long>> read(String file, StructType schema) throws IOException {
    List<List<Long>> rows = new ArrayList<>();
    try (CloseableIterator<ColumnarBatch> batches =
        LongParquetColumns.readOrNull(files, file, Files.size(Path.of(file)), schema)) {
      while (batches.hasNext()) {
        rows.addAll(rowsOf(batches.next()));
      }
    }
    return rows;
  }

  private static List<List<Long>> readWithKernel(String file, StructType schema)
      throws IOException {
    List<List<Long>> rows = new ArrayList<>();
    ParquetTestFiles.readWithKernel(engine, file, schema, batch -> rows.addAll(rowsOf(batch)));
    return rows;
  }

  private static List<List<Long>> rowsOf(ColumnarBatch batch) {
    List<List<Long>> rows = new ArrayList<>();
    for (int row = 0; row < batch.getSize(); row++) {
      Long[] values = new Long[batch.getSchema().length()];
      for (int column = 0; column < values.length; column++) {
        ColumnVector vector = batch.getColumnVector(column);
        values[column] = vector.isNullAt(row) ? null : vector.getLong(row);
      }
      rows.add(Arrays.asList(values));
    }
    return rows;
  }
}
