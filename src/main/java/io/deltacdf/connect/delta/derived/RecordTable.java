package io.deltacdf.connect.delta.derived;

import io.deltacdf.connect.delta.spill.SortedRecords;
import io.deltacdf.connect.delta.spill.SpillDirectory;
import io.deltacdf.connect.delta.spill.SpillFile;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Records of {@code stride} longs in the order {@link SortedRecords} yields them (by their first
 * two longs; the first, for one-long records), found by those longs, and whose longs can be read
 * and updated: on the heap, or in a {@link SpillFile}, read a block at a time.
 */
abstract sealed class RecordTable {

  final int stride;

  RecordTable(int stride) {
    this.stride = stride;
  }

  /** The index of the record that starts with {@code first} (and {@code second}), or -1. */
  abstract long find(long first, long second);

  /** How many records the table holds. */
  abstract long size();

  /**
   * The index of the first record whose first long is {@code first} or more (by signed order), or
   * {@link #size()} when there is none.
   */
  final long ceiling(long first) {
    long from = 0;
    long to = size();
    while (from < to) {
      long middle = (from + to) >>> 1;
      if (get(middle, 0) < first) {
        from = middle + 1;
      } else {
        to = middle;
      }
    }
    return from;
  }

  abstract long get(long record, int field);

  abstract void set(long record, int field, long value);

  /** Binary search among records {@code from} to {@code to}, both included. */
  final long search(long from, long to, long first, long second) {
    while (from <= to) {
      long middle = (from + to) >>> 1;
      int order = compare(get(middle, 0), stride > 1 ? get(middle, 1) : 0, first, second);
      if (order < 0) {
        from = middle + 1;
      } else if (order > 0) {
        to = middle - 1;
      } else {
        return middle;
      }
    }
    return -1;
  }

  final int compare(long first, long second, long otherFirst, long otherSecond) {
    int order = Long.compare(first, otherFirst);
    return order != 0 || stride == 1 ? order : Long.compare(second, otherSecond);
  }

  /** Appends records in order, then {@link #finish}es into a table on the heap or on disk. */
  abstract static sealed class Writer {

    /** A writer to a new file of {@code spill} when {@code onDisk}, else to the heap. */
    static Writer of(boolean onDisk, int stride, SpillDirectory spill, String name) {
      return onDisk
          ? toDisk(stride, spill.newFile(name), DiskWriter.MAX_BLOCKS)
          : new HeapWriter(stride);
    }

    /** A writer to {@code file} whose index holds up to {@code maxBlocks} (tests go lower). */
    static Writer toDisk(int stride, SpillFile file, int maxBlocks) {
      return new DiskWriter(stride, file, maxBlocks);
    }

    /** Appends a record; longs past the stride are ignored. */
    abstract void add(long first, long second, long third);

    abstract RecordTable finish();
  }

  private static final class HeapWriter extends Writer {
    private final int stride;
    private long[] values = new long[64];
    private int length;

    HeapWriter(int stride) {
      this.stride = stride;
    }

    @Override
    void add(long first, long second, long third) {
      if (length + stride > values.length) {
        values = Arrays.copyOf(values, Math.addExact(values.length, values.length >> 1));
      }
      values[length++] = first;
      if (stride > 1) {
        values[length++] = second;
      }
      if (stride > 2) {
        values[length++] = third;
      }
    }

    @Override
    RecordTable finish() {
      return new OnHeap(stride, Arrays.copyOf(values, length));
    }
  }

  private static final class OnHeap extends RecordTable {
    private final long[] values;

    OnHeap(int stride, long[] values) {
      super(stride);
      this.values = values;
    }

    @Override
    long find(long first, long second) {
      return search(0, values.length / stride - 1, first, second);
    }

    @Override
    long size() {
      return values.length / stride;
    }

    @Override
    long get(long record, int field) {
      return values[(int) record * stride + field];
    }

    @Override
    void set(long record, int field, long value) {
      values[(int) record * stride + field] = value;
    }
  }

  /**
   * Writes records to a spill file and keeps the first two longs of each block's first record on
   * the heap, so that a lookup reads one block. Blocks start at 4 KiB; when the index reaches
   * {@value #MAX_BLOCKS} blocks they double, so the heap stays within 1 MiB whatever the size.
   */
  private static final class DiskWriter extends Writer {
    static final int MAX_BLOCKS = 1 << 16;

    private final int stride;
    private final SpillFile file;
    private final int maxBlocks;
    private long[] firsts = new long[64];
    private int blocks;
    private long blockRecords;
    private long records;

    DiskWriter(int stride, SpillFile file, int maxBlocks) {
      this.stride = stride;
      this.file = file;
      this.maxBlocks = maxBlocks;
      this.blockRecords = 4096 / (Long.BYTES * stride);
    }

    @Override
    void add(long first, long second, long third) {
      if (records % blockRecords == 0 && blocks == maxBlocks) {
        // Every other first record starts a block of twice the size.
        for (int i = 0; i < blocks / 2; i++) {
          firsts[2 * i] = firsts[4 * i];
          firsts[2 * i + 1] = firsts[4 * i + 1];
        }
        blocks /= 2;
        blockRecords *= 2;
      }
      if (records % blockRecords == 0) {
        if (2 * blocks == firsts.length) {
          firsts = Arrays.copyOf(firsts, 2 * firsts.length);
        }
        firsts[2 * blocks] = first;
        firsts[2 * blocks + 1] = second;
        blocks++;
      }
      file.append(first);
      if (stride > 1) {
        file.append(second);
      }
      if (stride > 2) {
        file.append(third);
      }
      records++;
    }

    @Override
    RecordTable finish() {
      file.finishAppending();
      return new OnDisk(stride, file, records, Arrays.copyOf(firsts, 2 * blocks), blockRecords);
    }
  }

  /** Looked up through the block index; the last block read is kept, and updated in place. */
  private static final class OnDisk extends RecordTable {
    private final SpillFile file;
    private final long records;
    private final long[] firsts;
    private final long blockRecords;
    private final ByteBuffer block;
    private long loaded = -1;

    OnDisk(int stride, SpillFile file, long records, long[] firsts, long blockRecords) {
      super(stride);
      this.file = file;
      this.records = records;
      this.firsts = firsts;
      this.blockRecords = blockRecords;
      this.block = ByteBuffer.allocate(Math.toIntExact(blockRecords * stride * Long.BYTES));
    }

    @Override
    long find(long first, long second) {
      // The last block whose first record is not after the one looked for.
      int from = 0;
      int to = firsts.length / 2 - 1;
      int candidate = -1;
      while (from <= to) {
        int middle = (from + to) >>> 1;
        if (compare(firsts[2 * middle], firsts[2 * middle + 1], first, second) <= 0) {
          candidate = middle;
          from = middle + 1;
        } else {
          to = middle - 1;
        }
      }
      if (candidate < 0) {
        return -1;
      }
      long start = candidate * blockRecords;
      return search(start, Math.min(start + blockRecords, records) - 1, first, second);
    }

    @Override
    long size() {
      return records;
    }

    @Override
    long get(long record, int field) {
      return block.getLong(offsetInBlock(record, field));
    }

    @Override
    void set(long record, int field, long value) {
      block.putLong(offsetInBlock(record, field), value);
      file.write(record * stride + field, value);
    }

    private int offsetInBlock(long record, int field) {
      long index = record / blockRecords;
      if (index != loaded) {
        file.read(index * blockRecords * stride, block);
        loaded = index;
      }
      return (int) ((record - index * blockRecords) * stride + field) * Long.BYTES;
    }
  }
}
