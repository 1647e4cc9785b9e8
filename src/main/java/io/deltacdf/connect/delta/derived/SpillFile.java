package io.deltacdf.connect.delta.derived;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One temp file of longs: appended through a buffer, then read and updated at any index with
 * positional reads and writes of its channel. Nothing maps it, so {@link #close} (closing the
 * channel, then deleting the file) frees its disk blocks at once, not when a GC runs.
 *
 * @see SpillDirectory
 */
final class SpillFile implements AutoCloseable {

  private static final int APPEND_BUFFER_BYTES = 1 << 16;

  private final Path path;
  private final FileChannel channel;
  private ByteBuffer appending = ByteBuffer.allocate(APPEND_BUFFER_BYTES);
  private long longs;

  /** Opens {@code path}, an empty file. */
  SpillFile(Path path) throws IOException {
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  void append(long value) {
    if (!appending.hasRemaining()) {
      flush();
    }
    appending.putLong(value);
    longs++;
  }

  /** Writes what is appended; the file is then read only by index, and its buffer goes. */
  void finishAppending() {
    flush();
    appending = null;
  }

  /** Longs appended so far. */
  long length() {
    return longs;
  }

  /**
   * Reads from long {@code index} on into {@code into} until it is full or the file ends; returns
   * the longs read, and leaves {@code into} flipped to them.
   */
  int read(long index, ByteBuffer into) {
    into.clear();
    try {
      long position = index * Long.BYTES;
      while (into.hasRemaining()) {
        int read = channel.read(into, position);
        if (read < 0) {
          break;
        }
        position += read;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read spill file " + path, e);
    }
    into.flip();
    return into.remaining() / Long.BYTES;
  }

  void write(long index, long value) {
    ByteBuffer one = ByteBuffer.allocate(Long.BYTES).putLong(0, value);
    try {
      while (one.hasRemaining()) {
        channel.write(one, index * Long.BYTES + one.position());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write spill file " + path, e);
    }
  }

  /** Closes the channel, then deletes the file; never throws, so that every file gets closed. */
  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // Deleted all the same: the blocks go once nothing holds the file.
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      path.toFile().deleteOnExit();
    }
  }

  private void flush() {
    appending.flip();
    try {
      while (appending.hasRemaining()) {
        channel.write(appending);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write spill file " + path, e);
    }
    appending.clear();
  }
}
