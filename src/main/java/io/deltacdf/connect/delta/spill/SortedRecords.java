package io.deltacdf.connect.delta.spill;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Records of {@code stride} longs, given in any order and read back sorted by their first two longs
 * (the first, for one-long records). Up to {@code maxInMemory} records are sorted on the heap;
 * beyond that, each full buffer is sorted and written to a run file of {@code spill}, and reading
 * merges the runs, holding one buffered block per run; runs are first merged into fewer while there
 * are more than {@value #MAX_MERGE_WIDTH}, so that memory and open files stay bounded. The diff
 * sorts row fingerprints with it, and the plan of a huge commit its file actions.
 */
public final class SortedRecords {

  private static final int READ_BUFFER_BYTES = 1 << 16;
  private static final int MAX_MERGE_WIDTH = 64;

  /**
   * A full buffer of up to this many ascending stretches is spilled without being sorted: merging a
   * record from among 16 runs takes about 8 comparisons, sorting it about 20.
   */
  private static final int MAX_STRETCHES_UNSORTED = 16;

  private final int stride;
  private final int maxInMemory;
  private final SpillDirectory spill;
  private final List<SpillFile> runs = new ArrayList<>();
  private long[] buffer;
  private int buffered;

  public SortedRecords(int stride, int maxInMemory, SpillDirectory spill) {
    this.stride = stride;
    // An array holds at most about 2^31 longs.
    this.maxInMemory = Math.min(maxInMemory, (Integer.MAX_VALUE - 8) / stride);
    this.spill = spill;
    this.buffer = new long[stride * Math.min(maxInMemory, 1024)];
  }

  public void add(long first, long second, long third) {
    if (buffered == maxInMemory) {
      writeRun();
    }
    if ((buffered + 1) * stride > buffer.length) {
      // Doubling: each copy of a buffer this large is garbage for the collector to take back.
      int grown = (int) Math.min((long) maxInMemory, 2L * buffered);
      buffer = Arrays.copyOf(buffer, grown * stride);
    }
    int at = buffered * stride;
    buffer[at] = first;
    if (stride > 1) {
      buffer[at + 1] = second;
    }
    if (stride > 2) {
      buffer[at + 2] = third;
    }
    buffered++;
  }

  /** Whether records went to disk, so that what is built from them should too. */
  public boolean spilled() {
    return !runs.isEmpty();
  }

  /** The records in order; this instance is used up. Run files go as the cursor is closed. */
  public Cursor sorted() {
    if (runs.isEmpty()) {
      PairSort.sort(buffer, buffered, stride);
      long[] sorted = buffer;
      int count = buffered;
      buffer = null;
      return new InMemory(sorted, count, stride);
    }
    if (buffered > 0) {
      writeRun();
    }
    buffer = null;
    while (runs.size() > MAX_MERGE_WIDTH) {
      List<SpillFile> first = List.copyOf(runs.subList(0, MAX_MERGE_WIDTH));
      runs.subList(0, MAX_MERGE_WIDTH).clear();
      runs.add(mergeIntoRun(first));
    }
    return new Merge(List.copyOf(runs));
  }

  private SpillFile mergeIntoRun(List<SpillFile> files) {
    SpillFile run = spill.newFile("run-");
    try (Merge merge = new Merge(files)) {
      while (merge.next()) {
        for (int i = 0; i < stride; i++) {
          run.append(merge.get(i));
        }
      }
    }
    run.finishAppending();
    return run;
  }

  /**
   * Writes the buffer out as sorted runs. A buffer made of a few ascending stretches, as row
   * tracking's candidates are (each file's row ids mostly ascend), goes out stretch by stretch
   * unsorted: the merge orders them at no more cost than sorting them here would. Each run keeps a
   * file open until the merge, so stretches go out as runs of their own only while the runs number
   * no more than one merge takes; a huge version's later buffers are sorted, one run each.
   */
  private void writeRun() {
    int[] stretches = ascendingStretches();
    if (stretches == null || runs.size() + stretches.length - 1 > MAX_MERGE_WIDTH) {
      PairSort.sort(buffer, buffered, stride);
      stretches = new int[] {0, buffered};
    }
    for (int i = 0; i + 1 < stretches.length; i++) {
      SpillFile run = spill.newFile("run-");
      for (int at = stretches[i] * stride; at < stretches[i + 1] * stride; at++) {
        run.append(buffer[at]);
      }
      run.finishAppending();
      runs.add(run);
    }
    buffered = 0;
  }

  /**
   * Where the buffer's ascending stretches start, then its end; null when there are more than
   * {@value #MAX_STRETCHES_UNSORTED} of them.
   */
  private int[] ascendingStretches() {
    int[] starts = new int[MAX_STRETCHES_UNSORTED + 1];
    int count = 1;
    for (int record = 1; record < buffered; record++) {
      if (PairSort.compare(buffer, record - 1, record, stride) > 0) {
        if (count == MAX_STRETCHES_UNSORTED) {
          return null;
        }
        starts[count++] = record;
      }
    }
    starts[count] = buffered;
    return Arrays.copyOf(starts, count + 1);
  }

  /** Sorted records, one at a time: {@link #next} then {@link #get} the current one's longs. */
  public abstract static sealed class Cursor implements AutoCloseable {
    public abstract boolean next();

    public abstract long get(int field);

    @Override
    public void close() {}
  }

  private static final class InMemory extends Cursor {
    private final long[] records;
    private final int count;
    private final int stride;
    private int index = -1;

    InMemory(long[] records, int count, int stride) {
      this.records = records;
      this.count = count;
      this.stride = stride;
    }

    @Override
    public boolean next() {
      return ++index < count;
    }

    @Override
    public long get(int field) {
      return records[index * stride + field];
    }
  }

  /** A k-way merge of the sorted runs. */
  private final class Merge extends Cursor {
    private final List<SpillFile> files;
    private final PriorityQueue<Run> heads = new PriorityQueue<>(Merge::compare);
    private Run current;

    Merge(List<SpillFile> files) {
      this.files = files;
      for (SpillFile file : files) {
        Run run = new Run(file, stride);
        if (run.advance()) {
          heads.add(run);
        }
      }
    }

    private static int compare(Run a, Run b) {
      int order = Long.compare(a.record[0], b.record[0]);
      if (order == 0 && a.record.length > 1) {
        order = Long.compare(a.record[1], b.record[1]);
      }
      return order;
    }

    @Override
    public boolean next() {
      if (current != null && current.advance()) {
        heads.add(current);
      }
      current = heads.poll();
      return current != null;
    }

    @Override
    public long get(int field) {
      return current.record[field];
    }

    @Override
    public void close() {
      files.forEach(spill::delete);
    }
  }

  /** One run read in order, a buffer at a time. */
  private static final class Run {
    private final SpillFile file;
    private final ByteBuffer buffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    private long nextIndex;
    final long[] record;

    Run(SpillFile file, int stride) {
      this.file = file;
      this.record = new long[stride];
      buffer.flip();
    }

    boolean advance() {
      if (nextIndex == file.length()) {
        return false;
      }
      for (int i = 0; i < record.length; i++) {
        if (!buffer.hasRemaining()) {
          file.read(nextIndex, buffer);
        }
        record[i] = buffer.getLong();
        nextIndex++;
      }
      return true;
    }
  }
}
