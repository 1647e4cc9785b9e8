package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** Parquet files written by Spark into a folder, and read whole by Kernel as the reference. */
final class ParquetTestFiles {

  private ParquetTestFiles() {}

  /**
   * Writes {@code rows} (one partition) as one Parquet file in {@code out}, in row groups of about
   * a hundred rows and pages of 37 rows, with dictionaries or without; returns its path.
   */
  static String writeSmallRowGroups(Dataset<Row> rows, Path out, boolean dictionary)
      throws IOException {
    return writeSmallRowGroups(rows, out, dictionary, "v1");
  }

  /**
   * As {@link #writeSmallRowGroups(Dataset, Path, boolean)}, with Parquet's {@code writerVersion}:
   * {@code v2} writes data pages of version 2 and delta encodings.
   */
  static String writeSmallRowGroups(
      Dataset<Row> rows, Path out, boolean dictionary, String writerVersion) throws IOException {
    rows.write()
        .option("parquet.writer.version", writerVersion)
        .option("parquet.block.size", "1024")
        .option("parquet.page.row.count.limit", "37")
        .option("parquet.enable.dictionary", Boolean.toString(dictionary))
        .parquet(out.toString());
    return parquetFileIn(out);
  }

  /** The Parquet file Spark wrote into {@code folder} (with one partition of data). */
  static String parquetFileIn(Path folder) throws IOException {
    try (Stream<Path> listed = Files.list(folder)) {
      return listed
          .filter(path -> path.getFileName().toString().endsWith(".parquet"))
          .findFirst()
          .orElseThrow()
          .toString();
    }
  }

  /** Hands each batch of Kernel's full read of {@code file} with {@code schema} to {@code each}. */
  static void readWithKernel(
      DefaultEngine engine, String file, StructType schema, Consumer<ColumnarBatch> each)
      throws IOException {
    FileStatus status = FileStatus.of(file, Files.size(Path.of(file)), 0);
    try (CloseableIterator<FileReadResult> batches =
        engine
            .getParquetHandler()
            .readParquetFiles(KernelIterators.single(status), schema, Optional.empty())) {
      while (batches.hasNext()) {
        each.accept(batches.next().getData());
      }
    }
  }

  /** The row counts of the file's row groups. */
  static long[] rowGroupSizes(String file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), new Configuration()))) {
      return reader.getRowGroups().stream().mapToLong(BlockMetaData::getRowCount).toArray();
    }
  }

  /** The encodings of the file's column chunks, over all its row groups and columns. */
  static Set<Encoding> encodingsOf(String file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), new Configuration()))) {
      return reader.getRowGroups().stream()
          .flatMap(rowGroup -> rowGroup.getColumns().stream())
          .flatMap(column -> column.getEncodings().stream())
          .collect(Collectors.toSet());
    }
  }
}
