package io.deltacdf.connect.delta.spill;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Records come out ordered by their first two longs, each record whole, for inputs random, with
 * many equal keys, sorted, reversed, two sorted runs one after the other, and constant; with
 * quicksort alone, with heapsort alone and with heapsort taking over part way.
 */
class PairSortTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void sortsRecordsByTheirFirstTwoLongs(int stride) {
    Random random = new Random(stride);
    for (int count : new int[] {0, 1, 2, 3, 17, 100, 1_000, 20_000}) {
      for (Shape shape : Shape.values()) {
        long[] entries = shape.entries(random, count, stride);
        for (int depth : new int[] {-1, 0, 1, 3}) {
          long[] sorted = entries.clone();
          if (depth < 0) {
            PairSort.sort(sorted, count, stride);
          } else {
            PairSort.sort(sorted, count, stride, depth);
          }
          assertThat(records(sorted, count, stride))
              .as("%s of %d records, stride %d, depth %d", shape, count, stride, depth)
              .isSortedAccordingTo(byKey(stride));
          assertThat(wholly(records(sorted, count, stride)))
              .as("the records themselves")
              .isEqualTo(wholly(records(entries, count, stride)));
        }
      }
    }
  }

  private enum Shape {
    RANDOM,
    FEW_KEYS,
    ASCENDING,
    DESCENDING,
    TWO_RUNS,
    CONSTANT;

    long[] entries(Random random, int count, int stride) {
      long[] entries = new long[count * stride];
      for (int record = 0; record < count; record++) {
        for (int i = 0; i < stride; i++) {
          entries[record * stride + i] =
              switch (this) {
                case RANDOM -> random.nextLong();
                case FEW_KEYS -> i < 2 ? random.nextInt(3) : random.nextLong();
                case ASCENDING -> i == 0 ? record : random.nextInt(2);
                case DESCENDING -> i == 0 ? -record : random.nextInt(2);
                case TWO_RUNS -> i == 0 ? record % ((count + 1) / 2) : record * 2 / (count + 1);
                case CONSTANT -> i < 2 ? 7 : record;
              };
        }
      }
      return entries;
    }
  }

  private static List<List<Long>> records(long[] entries, int count, int stride) {
    List<List<Long>> records = new ArrayList<>();
    for (int record = 0; record < count; record++) {
      records.add(Arrays.stream(entries, record * stride, (record + 1) * stride).boxed().toList());
    }
    return records;
  }

  /** The records in the order of all their longs, to compare as multisets. */
  private static List<List<Long>> wholly(List<List<Long>> records) {
    Comparator<List<Long>> all = Comparator.comparing(record -> record.get(0));
    for (int i = 1; i < records.stream().mapToInt(List::size).max().orElse(1); i++) {
      int index = i;
      all = all.thenComparing(record -> record.get(index));
    }
    return records.stream().sorted(all).toList();
  }

  private static Comparator<List<Long>> byKey(int stride) {
    Comparator<List<Long>> first = Comparator.comparing(record -> record.get(0));
    return stride == 1 ? first : first.thenComparing(record -> record.get(1));
  }
}
