package io.deltacdf.connect.delta.read;

import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.fileio.InputFile;
import io.delta.kernel.defaults.engine.fileio.SeekableInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.schema.MessageType;

/**
 * A Parquet file's own schema, read from its footer. Writers shred variants into typed columns
 * chosen per file, so only the file tells which columns to ask the reader for.
 */
final class ParquetFooters {

  /** A Parquet file ends with its footer's length (4 bytes, little-endian) and "PAR1". */
  private static final int TAIL = 8;

  private static final int THRIFT_DEFAULT_LIMIT = 100 * 1024 * 1024;

  private ParquetFooters() {}

  static MessageType schema(FileIO files, String location, long knownSize) throws IOException {
    InputFile file = files.newInputFile(location, knownSize);
    long size = knownSize > 0 ? knownSize : file.length();
    try (SeekableInputStream in = file.newStream()) {
      byte[] tail = read(in, size - TAIL, TAIL);
      if (!"PAR1".equals(new String(tail, 4, 4, StandardCharsets.US_ASCII))) {
        throw new IOException(location + " is not a Parquet file: it does not end with PAR1");
      }
      int footerLength = ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      if (footerLength <= 0 || footerLength > size - TAIL) {
        throw new IOException(location + " has a footer length of " + footerLength + " bytes");
      }
      byte[] footer = read(in, size - TAIL - footerLength, footerLength);
      // The footer is in memory whole; Thrift's message limit only needs to let it be read.
      FileMetaData metadata =
          Util.readFileMetaData(
              new ByteArrayInputStream(footer), Math.max(footerLength, THRIFT_DEFAULT_LIMIT));
      return new ParquetMetadataConverter()
          .fromParquetMetadata(metadata)
          .getFileMetaData()
          .getSchema();
    }
  }

  private static byte[] read(SeekableInputStream in, long position, int length) throws IOException {
    if (position < 0) {
      throw new IOException("file too short for a Parquet footer");
    }
    byte[] bytes = new byte[length];
    in.seek(position);
    in.readFully(bytes, 0, length);
    return bytes;
  }
}
