package io.deltacdf.connect.delta.derived;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A fixed number of longs, readable and writable by index: on the heap, or in a memory-mapped
 * temp file, which takes no heap however long it is.
 */
abstract sealed class LongArray {

  abstract long length();

  abstract long get(long index);

  abstract void set(long index, long value);

  /** Appends longs, then {@link #finish}es into an array on the heap or on disk. */
  abstract static sealed class Writer {

    /** A writer to a new file of {@code spill} when {@code onDisk}, else to the heap. */
    static Writer of(boolean onDisk, SpillDirectory spill, String name) {
      return onDisk ? new FileWriter(spill.newFile(name)) : new HeapWriter();
    }

    abstract void add(long value);

    abstract LongArray finish();
  }

  private static final class HeapWriter extends Writer {
    private long[] values = new long[64];
    private int length;

    @Override
    void add(long value) {
      if (length == values.length) {
        values = Arrays.copyOf(values, Math.addExact(length, length >> 1));
      }
      values[length++] = value;
    }

    @Override
    LongArray finish() {
      return new OnHeap(Arrays.copyOf(values, length));
    }
  }

  private static final class FileWriter extends Writer {
    private final Path file;
    private final DataOutputStream out;
    private long length;

    FileWriter(Path file) {
      this.file = file;
      try {
        this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    void add(long value) {
      try {
        out.writeLong(value);
        length++;
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write spill file " + file, e);
      }
    }

    @Override
    LongArray finish() {
      try {
        out.close();
        return new Mapped(file, length);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot map spill file " + file, e);
      }
    }
  }

  private static final class OnHeap extends LongArray {
    private final long[] values;

    OnHeap(long[] values) {
      this.values = values;
    }

    @Override
    long length() {
      return values.length;
    }

    @Override
    long get(long index) {
      return values[(int) index];
    }

    @Override
    void set(long index, long value) {
      values[(int) index] = value;
    }
  }

  /** Mapped in segments, since one mapping holds at most 2 GiB. */
  private static final class Mapped extends LongArray {
    private static final int LONGS_PER_SEGMENT_SHIFT = 27;
    private static final long SEGMENT_MASK = (1L << LONGS_PER_SEGMENT_SHIFT) - 1;

    private final long length;
    private final MappedByteBuffer[] segments;

    Mapped(Path file, long length) throws IOException {
      this.length = length;
      int count = (int) ((length + SEGMENT_MASK) >>> LONGS_PER_SEGMENT_SHIFT);
      this.segments = new MappedByteBuffer[count];
      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        for (int i = 0; i < count; i++) {
          long first = (long) i << LONGS_PER_SEGMENT_SHIFT;
          long longs = Math.min(length - first, 1L << LONGS_PER_SEGMENT_SHIFT);
          segments[i] = channel.map(FileChannel.MapMode.READ_WRITE, first * 8, longs * 8);
        }
      }
    }

    @Override
    long length() {
      return length;
    }

    @Override
    long get(long index) {
      return segments[(int) (index >>> LONGS_PER_SEGMENT_SHIFT)]
          .getLong((int) (index & SEGMENT_MASK) << 3);
    }

    @Override
    void set(long index, long value) {
      segments[(int) (index >>> LONGS_PER_SEGMENT_SHIFT)]
          .putLong((int) (index & SEGMENT_MASK) << 3, value);
    }
  }
}
