package io.deltacdf.connect.delta.derived;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.delta.spill.SpillDirectory;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table on disk finds, reads and updates records as one on the heap does, and finds the first
 * record at or after a long, also once its block index has doubled its blocks several times (an
 * index of 4 blocks here instead of 65,536).
 */
class RecordTableTest {

  private static final int RECORDS = 5_000;

  @TempDir Path spillRoot;

  @Test
  void onDiskAndOnHeapAgreeForBothStrides() {
    for (int stride : new int[] {1, 3}) {
      try (SpillDirectory spill = new SpillDirectory(spillRoot, "delta-cdf-diff-")) {
        RecordTable heap = fill(RecordTable.Writer.of(false, stride, spill, "heap-"), stride);
        RecordTable disk =
            fill(RecordTable.Writer.toDisk(stride, spill.newFile("disk-"), 4), stride);
        Random random = new Random(stride);
        for (int i = 0; i < 20_000; i++) {
          long first = 2L * random.nextInt(RECORDS + 10) - 10;
          long second = random.nextBoolean() ? first : first + 1;
          long found = heap.find(first, second);
          assertThat(disk.find(first, second)).as("find %d %d", first, second).isEqualTo(found);
          // Records 0, 2, 4, ...: the first at or after an even long is its half, else the next.
          long ceiling = Math.min(RECORDS, Math.max(0, (first + 1) / 2));
          assertThat(heap.ceiling(first)).as("heap ceiling %d", first).isEqualTo(ceiling);
          assertThat(disk.ceiling(first)).as("disk ceiling %d", first).isEqualTo(ceiling);
          assertThat(disk.ceiling(first + 1))
              .isEqualTo(Math.min(RECORDS, Math.max(0, first / 2 + 1)));
          if (found >= 0 && stride == 3) {
            long value = random.nextLong();
            heap.set(found, 2, value);
            disk.set(found, 2, value);
          }
        }
        for (long record = 0; record < RECORDS; record++) {
          for (int field = 0; field < stride; field++) {
            assertThat(disk.get(record, field)).isEqualTo(heap.get(record, field));
          }
        }
      }
    }
  }

  /** Records 0, 2, 4, ... as (first, first), so that odd longs and (first, first + 1) miss. */
  private static RecordTable fill(RecordTable.Writer writer, int stride) {
    LongStream.range(0, RECORDS).map(i -> 2 * i).forEach(first -> writer.add(first, first, -first));
    return writer.finish();
  }
}
