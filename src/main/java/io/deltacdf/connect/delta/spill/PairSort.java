package io.deltacdf.connect.delta.spill;

import java.util.Arrays;

/**
 * Sorts records of {@code stride} longs laid out in one array by their first two longs (the first,
 * for one-long records), in place: no extra memory. An introsort: quicksort with a median-of-three
 * pivot, insertion sort for short ranges, and heapsort for a range quicksort splits badly too often
 * (n log n at worst). Heapsort alone jumps all over a large array: on the diff of a rewriting
 * version it took about half of the reading thread's time.
 */
final class PairSort {

  /** Ranges up to this many records are insertion-sorted. */
  private static final int SHORT = 16;

  /** Ranges longer than this take their pivot from nine records. */
  private static final int NINTHER = 40;

  private PairSort() {}

  static void sort(long[] entries, int count, int stride) {
    if (stride == 1) {
      // One-long records are plain longs: the JDK's sort of them is the fastest there is.
      Arrays.sort(entries, 0, count);
      return;
    }
    sort(entries, count, stride, 2 * (32 - Integer.numberOfLeadingZeros(count)));
  }

  /** Sorts with at most {@code depth} levels of quicksort before heapsort takes over a range. */
  static void sort(long[] entries, int count, int stride, int depth) {
    quickSort(entries, 0, count, stride, depth);
  }

  /** Sorts the records from {@code from} up to (not including) {@code to}. */
  private static void quickSort(long[] entries, int from, int to, int stride, int depth) {
    while (to - from > SHORT) {
      if (depth-- == 0) {
        heapSort(entries, from, to, stride);
        return;
      }
      int split = partition(entries, from, to, stride);
      // Recursing into the shorter side bounds the stack to log n frames.
      if (split - from < to - split) {
        quickSort(entries, from, split, stride, depth);
        from = split;
      } else {
        quickSort(entries, split, to, stride, depth);
        to = split;
      }
    }
    insertionSort(entries, from, to, stride);
  }

  /**
   * Hoare's partition around a pivot picked as the median of three records, or for a long range of
   * three such medians (Tukey's ninther: two sorted runs one after the other, as a diff's
   * candidates often are, would make a plain median of three pick nearly their maximum every time).
   * Returns a split strictly inside the range with no record before it greater, and none from it on
   * smaller, than the pivot.
   */
  private static int partition(long[] entries, int from, int to, int stride) {
    int last = to - 1;
    int middle = from + (last - from) / 2;
    int pivot;
    if (to - from > NINTHER) {
      int step = (to - from) / 8;
      pivot =
          median(
              entries,
              median(entries, from, from + step, from + 2 * step, stride),
              median(entries, middle - step, middle, middle + step, stride),
              median(entries, last - 2 * step, last - step, last, stride),
              stride);
    } else {
      pivot = median(entries, from, middle, last, stride);
    }
    // In the middle (before the last record), the pivot stops both scans inside the range.
    swap(entries, pivot, middle, stride);
    long first = entries[middle * stride];
    long second = stride > 1 ? entries[middle * stride + 1] : 0;
    int i = from - 1;
    int j = to;
    while (true) {
      do {
        i++;
      } while (compare(entries, i, first, second, stride) < 0);
      do {
        j--;
      } while (compare(entries, j, first, second, stride) > 0);
      if (i >= j) {
        return j + 1;
      }
      swap(entries, i, j, stride);
    }
  }

  /** The index of the median of the records {@code a}, {@code b} and {@code c}. */
  private static int median(long[] entries, int a, int b, int c, int stride) {
    if (less(entries, a, b, stride)) {
      return less(entries, b, c, stride) ? b : less(entries, a, c, stride) ? c : a;
    }
    return less(entries, a, c, stride) ? a : less(entries, b, c, stride) ? c : b;
  }

  private static void insertionSort(long[] entries, int from, int to, int stride) {
    for (int i = from + 1; i < to; i++) {
      for (int j = i; j > from && less(entries, j, j - 1, stride); j--) {
        swap(entries, j, j - 1, stride);
      }
    }
  }

  private static void heapSort(long[] entries, int from, int to, int stride) {
    int count = to - from;
    for (int root = count / 2 - 1; root >= 0; root--) {
      siftDown(entries, from, root, count, stride);
    }
    for (int end = count - 1; end > 0; end--) {
      swap(entries, from, from + end, stride);
      siftDown(entries, from, 0, end, stride);
    }
  }

  /** Sifts down in the heap of {@code count} records starting at record {@code base}. */
  private static void siftDown(long[] entries, int base, int root, int count, int stride) {
    while (true) {
      int child = 2 * root + 1;
      if (child >= count) {
        return;
      }
      if (child + 1 < count && less(entries, base + child, base + child + 1, stride)) {
        child++;
      }
      if (!less(entries, base + root, base + child, stride)) {
        return;
      }
      swap(entries, base + root, base + child, stride);
      root = child;
    }
  }

  private static boolean less(long[] entries, int a, int b, int stride) {
    int order = Long.compare(entries[a * stride], entries[b * stride]);
    if (order == 0 && stride > 1) {
      order = Long.compare(entries[a * stride + 1], entries[b * stride + 1]);
    }
    return order < 0;
  }

  /** The order of records {@code a} and {@code b}, by their first two longs. */
  static int compare(long[] entries, int a, int b, int stride) {
    return compare(
        entries, a, entries[b * stride], stride > 1 ? entries[b * stride + 1] : 0, stride);
  }

  private static int compare(long[] entries, int a, long first, long second, int stride) {
    int order = Long.compare(entries[a * stride], first);
    if (order == 0 && stride > 1) {
      order = Long.compare(entries[a * stride + 1], second);
    }
    return order;
  }

  private static void swap(long[] entries, int a, int b, int stride) {
    for (int i = 0; i < stride; i++) {
      long held = entries[a * stride + i];
      entries[a * stride + i] = entries[b * stride + i];
      entries[b * stride + i] = held;
    }
  }
}
