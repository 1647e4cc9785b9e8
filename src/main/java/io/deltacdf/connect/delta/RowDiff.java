package io.deltacdf.connect.delta;

import io.deltacdf.connect.change.ChangeType;
import java.util.Arrays;

/**
 * The multiset difference between the rows that leave the table in one version and the rows that
 * enter it, as fingerprints: which rows are real deletes and inserts, and which are only rewritten
 * unchanged (copy-on-write). Built from a first pass over the version's files; the second pass
 * asks {@link #decide} about each row in the same fixed order.
 *
 * <p>For a fingerprint that leaves {@code r} times and enters {@code a} times, the first {@code
 * r - a} leaving occurrences (in file order, then row order) are deletes when {@code r > a}, the
 * first {@code a - r} entering ones inserts when {@code a > r}; the rest produce nothing. The
 * decision depends only on the rows decided before, so a reader resuming inside the version
 * replays the decisions up to its position and then continues exactly.
 *
 * <p>Memory: 16 bytes per candidate row while building (24 with key columns), then 20 (28) bytes
 * per changed row. Fingerprints keep 127 of their bits (one carries the side), so two distinct
 * rows among n collide with probability below n^2 / 2^128.
 */
final class RowDiff {

  private final int stride;
  /** Changed fingerprints, sorted: high, low (and key) per entry. */
  private final long[] changed;
  /** Per changed fingerprint: inserts still to emit (positive) or deletes (negative). */
  private final int[] remaining;
  private final long[] deletedKeys;
  private final long[] insertedKeys;

  private RowDiff(int stride, long[] changed, int[] remaining, long[] deletedKeys,
      long[] insertedKeys) {
    this.stride = stride;
    this.changed = changed;
    this.remaining = remaining;
    this.deletedKeys = deletedKeys;
    this.insertedKeys = insertedKeys;
  }

  /**
   * What a candidate row becomes: {@code side} is {@link ChangeType#DELETE} for a row leaving the
   * table and {@link ChangeType#INSERT} for one entering it. Returns null for a row that is only
   * rewritten, else {@code side}. Consumes the row's share: call once per row, in order.
   */
  ChangeType decide(ChangeType side, RowFingerprints.Fingerprint fingerprint) {
    int index = find(fingerprint.high(), fingerprint.low() & ~1L);
    if (index < 0) {
      return null;
    }
    boolean leaving = side == ChangeType.DELETE;
    if (leaving ? remaining[index] >= 0 : remaining[index] <= 0) {
      return null;
    }
    remaining[index] += leaving ? 1 : -1;
    return side;
  }

  /**
   * A changed row of key fingerprint {@code key} as an update image when the other side of the
   * version changes a row of the same key, else as {@code side}.
   */
  ChangeType paired(ChangeType side, long key) {
    if (side == ChangeType.DELETE) {
      return Arrays.binarySearch(insertedKeys, key) >= 0 ? ChangeType.UPDATE_PREIMAGE : side;
    }
    return Arrays.binarySearch(deletedKeys, key) >= 0 ? ChangeType.UPDATE_POSTIMAGE : side;
  }

  private int find(long high, long low) {
    int from = 0;
    int to = remaining.length - 1;
    while (from <= to) {
      int middle = (from + to) >>> 1;
      int order = compare(changed, middle * stride, high, low);
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

  private static int compare(long[] entries, int at, long high, long low) {
    int order = Long.compare(entries[at], high);
    return order != 0 ? order : Long.compare(entries[at + 1], low);
  }

  /** Collects the candidate rows of a version's first pass. */
  static final class Builder {
    private final int stride;
    private long[] entries;
    private int size;

    /** @param keyed whether rows carry a key fingerprint (key columns are set) */
    Builder(boolean keyed) {
      this.stride = keyed ? 3 : 2;
      this.entries = new long[stride * 1024];
    }

    void add(ChangeType side, RowFingerprints.Fingerprint fingerprint, long key) {
      if ((size + 1) * stride > entries.length) {
        long grown = Math.min((long) entries.length * 3 / 2 + stride, Integer.MAX_VALUE - 8);
        if (grown <= entries.length) {
          throw new IllegalStateException("Too many rows in one version to diff in memory");
        }
        entries = Arrays.copyOf(entries, (int) (grown - grown % stride));
      }
      int at = size * stride;
      entries[at] = fingerprint.high();
      entries[at + 1] = (fingerprint.low() & ~1L) | (side == ChangeType.INSERT ? 1 : 0);
      if (stride == 3) {
        entries[at + 2] = key;
      }
      size++;
    }

    RowDiff build() {
      PairSort.sort(entries, size, stride);
      int groups = 0;
      for (int start = 0; start < size; start = groupEnd(start)) {
        if (net(start) != 0) {
          groups++;
        }
      }
      long[] changed = new long[groups * stride];
      int[] remaining = new int[groups];
      long[] deleted = new long[groups];
      long[] inserted = new long[groups];
      int deletedCount = 0;
      int insertedCount = 0;
      int group = 0;
      for (int start = 0; start < size; start = groupEnd(start)) {
        int net = net(start);
        if (net == 0) {
          continue;
        }
        int at = start * stride;
        changed[group * stride] = entries[at];
        changed[group * stride + 1] = entries[at + 1] & ~1L;
        if (stride == 3) {
          changed[group * stride + 2] = entries[at + 2];
          if (net < 0) {
            deleted[deletedCount++] = entries[at + 2];
          } else {
            inserted[insertedCount++] = entries[at + 2];
          }
        }
        remaining[group++] = net;
      }
      entries = null;
      long[] deletedKeys = Arrays.copyOf(deleted, deletedCount);
      long[] insertedKeys = Arrays.copyOf(inserted, insertedCount);
      Arrays.sort(deletedKeys);
      Arrays.sort(insertedKeys);
      return new RowDiff(stride, changed, remaining, deletedKeys, insertedKeys);
    }

    /** The first entry after the group of equal fingerprints that starts at {@code start}. */
    private int groupEnd(int start) {
      int end = start + 1;
      while (end < size && sameFingerprint(start, end)) {
        end++;
      }
      return end;
    }

    private boolean sameFingerprint(int a, int b) {
      return entries[a * stride] == entries[b * stride]
          && (entries[a * stride + 1] & ~1L) == (entries[b * stride + 1] & ~1L);
    }

    /** Entering minus leaving occurrences of the group at {@code start}. */
    private int net(int start) {
      int net = 0;
      for (int i = start, end = groupEnd(start); i < end; i++) {
        net += (entries[i * stride + 1] & 1L) == 1 ? 1 : -1;
      }
      return net;
    }
  }
}
