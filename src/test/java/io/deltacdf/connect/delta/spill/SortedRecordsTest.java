package io.deltacdf.connect.delta.spill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Records come back whole and ordered by their first two longs, on the heap and spilled, whether
 * the buffers that spill are random, made of a few ascending stretches (spilled unsorted, stretch
 * by stretch), or of just too many stretches for that; and more runs than one merge takes.
 */
class SortedRecordsTest {

  @TempDir Path spillRoot;

  static Stream<Arguments> inputs() {
    return Stream.of(
        Arguments.of("random", 0, 3, 5_000),
        Arguments.of("random", 0, 3, 100),
        Arguments.of("one stretch", 1, 3, 100),
        Arguments.of("three stretches", 3, 3, 100),
        Arguments.of("sixteen stretches", 16, 3, 1_000),
        Arguments.of("seventeen stretches", 17, 3, 1_000),
        Arguments.of("three stretches of one-long records", 3, 1, 100),
        Arguments.of("three stretches, more runs than one merge takes", 3, 2, 10));
  }

  @ParameterizedTest(name = "{0}, stride {2}, {3} records in memory")
  @MethodSource("inputs")
  void recordsComeBackWholeAndInOrder(String shape, int stretches, int stride, int maxInMemory)
      throws IOException {
    List<long[]> records = records(new Random(stretches * 31L + stride), 2_000, stretches, stride);
    List<long[]> sorted = new ArrayList<>();
    try (SpillDirectory spill = new SpillDirectory(spillRoot, "sorted-records-test-")) {
      SortedRecords sorting = new SortedRecords(stride, maxInMemory, spill);
      records.forEach(
          record -> sorting.add(record[0], stride > 1 ? record[1] : 0, stride > 2 ? record[2] : 0));
      assertThat(sorting.spilled()).isEqualTo(maxInMemory < records.size());
      try (SortedRecords.Cursor cursor = sorting.sorted()) {
        while (cursor.next()) {
          long[] record = new long[stride];
          for (int field = 0; field < stride; field++) {
            record[field] = cursor.get(field);
          }
          sorted.add(record);
        }
      }
    }
    try (Stream<Path> left = Files.walk(spillRoot)) {
      assertThat(left.filter(Files::isRegularFile)).as("run files left behind").isEmpty();
    }

    Comparator<long[]> byKey = Comparator.comparingLong(record -> record[0]);
    if (stride > 1) {
      byKey = byKey.thenComparingLong(record -> record[1]);
    }
    assertThat(sorted).isSortedAccordingTo(byKey);
    assertThat(sorted.stream().map(Arrays::toString).sorted())
        .as("the records themselves")
        .containsExactlyElementsOf(records.stream().map(Arrays::toString).sorted().toList());
  }

  /**
   * {@code count} records: random ones for no stretch, else ascending stretches one after the
   * other, each over the whole key range (so that no two neighbouring stretches join into one).
   * Records share keys, so that the second long decides their order.
   */
  private static List<long[]> records(Random random, int count, int stretches, int stride) {
    List<long[]> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long[] record = new long[stride];
      if (stretches == 0) {
        record[0] = random.nextInt(count / 4);
      } else {
        int perStretch = (count + stretches - 1) / stretches;
        record[0] = (i % perStretch) / 2;
      }
      for (int field = 1; field < stride; field++) {
        record[field] = field == 1 && stretches > 0 ? i : random.nextLong();
      }
      records.add(record);
    }
    return records;
  }
}
