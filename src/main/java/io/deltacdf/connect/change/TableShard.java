package io.deltacdf.connect.change;

/**
 * Shard {@code index} of {@code count} of a table's change stream: the change rows whose key
 * columns hash to {@code index} (see {@link KeyHash}). Every key belongs to exactly one shard of a
 * count, so all changes of one key come from one shard, in commit order.
 */
public record TableShard(int index, int count) {

  /** The whole table, one stream. */
  public static final TableShard WHOLE = new TableShard(0, 1);

  /**
   * The most shards a table may be split into. A task that opens a table looks up the offsets of
   * every shard of every count up to this one (a changed count hands over from them): 136
   * partitions a table at 16.
   */
  public static final int MAX_COUNT = 16;

  public TableShard {
    if (count < 1 || count > MAX_COUNT || index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "A table shard is <index>/<count> with 0 <= index < count <= "
              + MAX_COUNT
              + ", not "
              + index
              + "/"
              + count);
    }
  }

  public boolean whole() {
    return count == 1;
  }

  /** Whether the key whose {@link KeyHash} is {@code keyHash} belongs to this shard. */
  public boolean owns(long keyHash) {
    return indexOf(keyHash, count) == index;
  }

  /** The index of the shard of {@code count} that owns the key whose hash is {@code keyHash}. */
  public static int indexOf(long keyHash, int count) {
    return (int) Long.remainderUnsigned(keyHash, count);
  }

  /** "index/count", as a shard's source partition names it. */
  public String label() {
    return index + "/" + count;
  }

  /** Reads {@link #label()}. */
  public static TableShard parse(String label) {
    String[] parts = label.split("/", -1);
    try {
      if (parts.length == 2) {
        return new TableShard(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "A table shard is <index>/<count> (such as 0/4), not '" + label + "'");
  }
}
