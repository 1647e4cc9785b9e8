package io.deltacdf.connect.delta.plan;

import java.util.Arrays;

/**
 * 64-bit fingerprints of file paths, eight bytes each: what planning a commit of a million file
 * actions keeps of them to find the paths both added and removed. Two paths may share a
 * fingerprint, so a match is a candidate that the paths themselves confirm.
 */
public final class PathFingerprints {

  private long[] values = new long[1024];
  private int size;

  public void add(String path) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = of(path);
  }

  public int size() {
    return size;
  }

  /** The fingerprints found in both, sorted for {@link #contains}. */
  public static long[] common(PathFingerprints first, PathFingerprints second) {
    long[] a = Arrays.copyOf(first.values, first.size);
    long[] b = Arrays.copyOf(second.values, second.size);
    Arrays.sort(a);
    Arrays.sort(b);
    long[] both = new long[Math.min(a.length, b.length)];
    int count = 0;
    for (int i = 0, j = 0; i < a.length && j < b.length; ) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        if (count == 0 || both[count - 1] != a[i]) {
          both[count++] = a[i];
        }
        i++;
        j++;
      }
    }
    return Arrays.copyOf(both, count);
  }

  /** Whether {@code path}'s fingerprint is among {@code sorted}. */
  public static boolean contains(long[] sorted, String path) {
    return sorted.length > 0 && Arrays.binarySearch(sorted, of(path)) >= 0;
  }

  /** FNV-1a over the path's characters, then a final mix so that near paths spread. */
  public static long of(String path) {
    long hash = 0xcbf29ce484222325L;
    for (int i = 0; i < path.length(); i++) {
      hash = (hash ^ path.charAt(i)) * 0x100000001b3L;
    }
    hash ^= hash >>> 33;
    hash *= 0xff51afd7ed558ccdL;
    return hash ^ (hash >>> 33);
  }
}
