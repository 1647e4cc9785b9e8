package io.deltacdf.connect.delta.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/** The Parquet schemas of a table's files, as text: what a writer really put in them. */
public final class ParquetSchemas {

  private ParquetSchemas() {}

  /** The schema of each data and change-data file under {@code table}. */
  public static List<String> dataAndCdcFiles(Path table) {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(f -> f.toString().endsWith(".parquet"))
          .filter(f -> !f.toString().contains("_delta_log"))
          .map(ParquetSchemas::schema)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String schema(Path file) {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      return reader.getFooter().getFileMetaData().getSchema().toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
