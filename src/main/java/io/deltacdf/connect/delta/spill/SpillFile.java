package io.deltacdf.connect.delta.spill;

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
 * channel, then deleting the file) frees its disk blocks at once, not when a GC runs. The channel
 * is closed from the end of appending until the first read, so that the many runs of a large sort
 * waiting for their merge hold no file descriptors.
 *
 * @see SpillDirectory
 */
public final class SpillFile implements AutoCloseable {

  private static final int APPEND_BUFFER_BYTES = 1 << 16;

  private final Path path;
  private FileChannel channel;
  private ByteBuffer appending = ByteBuffer.allocate(APPEND_BUFFER_BYTES);
  private long longs;

  /** Appends to {@code path}, an empty file. */
  SpillFile(Path path) throws IOException {
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.WRITE);
  }

  public void append(long value) {
    if (!appending.hasRemaining()) {
      flush();
    }
    appending.putLong(value);
    longs++;
  }

  /** Writes what is appended; the file is then read only by index, and its buffer goes. */
  public void finishAppending() {
    flush();
    appending = null;
    closeChannel();
  }

  /** Longs appended so far. */
  long length() {
    return longs;
  }

  /**
   * Reads from long {@code index} on into {@code into} until it is full or the file ends; returns
   * the longs read, and leaves {@code into} flipped to them.
   */
  public int read(long index, ByteBuffer into) {
    into.clear();
    try {
      open();
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

  public void write(long index, long value) {
    ByteBuffer one = ByteBuffer.allocate(Long.BYTES).putLong(0, value);
    try {
      open();
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
    closeChannel();
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      path.toFile().deleteOnExit();
    }
  }

  private void open() throws IOException {
    if (channel == null) {
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
  }

  private void closeChannel() {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Deleted all the same: the blocks go once nothing holds the file.
    }
    channel = null;
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
