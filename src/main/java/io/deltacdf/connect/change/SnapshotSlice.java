package io.deltacdf.connect.change;

/**
 * Slice {@code index} of {@code count} of a table's initial snapshot: the snapshot's data files
 * whose path hashes to {@code index}. The slices of one count are disjoint and together hold every
 * file, and a file's slice depends only on its path, so it stays the same when the log is replayed
 * in another order or from another checkpoint.
 */
public record SnapshotSlice(int index, int count) {

  /** The whole snapshot, read by one task. */
  public static final SnapshotSlice WHOLE = new SnapshotSlice(0, 1);

  public SnapshotSlice {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "A snapshot slice is <index>/<count> with 0 <= index < count, not "
              + index
              + "/"
              + count);
    }
  }

  public boolean whole() {
    return count == 1;
  }

  /** Whether the data file at {@code path} (as the log names it) belongs to this slice. */
  public boolean contains(String path) {
    return whole() || Math.floorMod(spread(path.hashCode()), count) == index;
  }

  /** "index/count", as a slice's source partition names it. */
  public String label() {
    return index + "/" + count;
  }

  /** Reads {@link #label()}. */
  public static SnapshotSlice parse(String label) {
    String[] parts = label.split("/", -1);
    try {
      if (parts.length == 2) {
        return new SnapshotSlice(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "A snapshot slice is <index>/<count> (such as 0/4), not '" + label + "'");
  }

  /**
   * Mixes the bits of a string hash (String.hashCode is fixed by the Java specification), so that
   * paths differing only in a few characters still spread evenly over the slices.
   */
  private static int spread(int hash) {
    int h = hash;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
