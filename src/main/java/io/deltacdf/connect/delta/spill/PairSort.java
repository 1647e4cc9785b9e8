package io.deltacdf.connect.delta.spill;

/**
 * Sorts records of {@code stride} longs laid out in one array by their first two longs (the first,
 * for one-long records), in place (heapsort: no extra memory, no recursion, n log n at worst).
 */
final class PairSort {

  private PairSort() {}

  static void sort(long[] entries, int count, int stride) {
    for (int root = count / 2 - 1; root >= 0; root--) {
      siftDown(entries, root, count, stride);
    }
    for (int end = count - 1; end > 0; end--) {
      swap(entries, 0, end, stride);
      siftDown(entries, 0, end, stride);
    }
  }

  private static void siftDown(long[] entries, int root, int count, int stride) {
    while (true) {
      int child = 2 * root + 1;
      if (child >= count) {
        return;
      }
      if (child + 1 < count && less(entries, child, child + 1, stride)) {
        child++;
      }
      if (!less(entries, root, child, stride)) {
        return;
      }
      swap(entries, root, child, stride);
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

  private static void swap(long[] entries, int a, int b, int stride) {
    for (int i = 0; i < stride; i++) {
      long held = entries[a * stride + i];
      entries[a * stride + i] = entries[b * stride + i];
      entries[b * stride + i] = held;
    }
  }
}
