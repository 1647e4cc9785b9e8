package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.fileio.InputFile;
import io.delta.kernel.defaults.engine.hadoopio.HadoopInputFile;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.SeekableInputStream;

/** Opens a Parquet file through Kernel's file access for parquet-mr's own readers. */
final class ParquetFiles {

  /** No setting: an empty configuration, loading no resources. */
  static final Configuration NO_SETTINGS = new Configuration(false);

  private ParquetFiles() {}

  /**
   * What {@code reading} makes of parquet-mr's reader of the file at {@code location}, of {@code
   * knownSize} bytes (0: ask); the file is closed again when that fails.
   */
  static <T> T open(FileIO files, String location, long knownSize, Reading<T> reading)
      throws IOException {
    InputFile input = files.newInputFile(location, knownSize);
    ParquetFileReader file = ParquetFileReader.open(parquetFile(input), readOptions(input));
    try {
      return reading.of(file);
    } catch (IOException | RuntimeException e) {
      try {
        file.close();
      } catch (IOException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Makes something of an open Parquet file, which it closes in time (or hands on to close). */
  interface Reading<T> {
    T of(ParquetFileReader file) throws IOException;
  }

  /**
   * The read options of the file's own Hadoop configuration, as Kernel's reader takes them: parsing
   * Hadoop's default settings anew per file would cost more than reading a small file.
   */
  private static ParquetReadOptions readOptions(InputFile input) {
    Configuration settings =
        input instanceof HadoopInputFile hadoop ? hadoop.configuration() : NO_SETTINGS;
    return ParquetReadOptions.builder(new HadoopParquetConfiguration(settings)).build();
  }

  /** Kernel's file access as parquet-mr's. */
  private static org.apache.parquet.io.InputFile parquetFile(InputFile input) {
    return new org.apache.parquet.io.InputFile() {
      @Override
      public long getLength() throws IOException {
        return input.length();
      }

      @Override
      public SeekableInputStream newStream() throws IOException {
        io.delta.kernel.defaults.engine.fileio.SeekableInputStream in = input.newStream();
        return new DelegatingSeekableInputStream(in) {
          @Override
          public long getPos() throws IOException {
            return in.getPos();
          }

          @Override
          public void seek(long newPos) throws IOException {
            in.seek(newPos);
          }
        };
      }
    };
  }
}
