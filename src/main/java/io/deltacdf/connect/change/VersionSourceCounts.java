package io.deltacdf.connect.change;

/**
 * How many commit versions a feed has read to their end, by where their change rows came from.
 *
 * @param cdf versions read from their cdc files (the Change Data Feed)
 * @param rowTracking versions whose rows were paired by row id (or only entered or only left, on a
 *     table with row tracking)
 * @param derived versions derived by the key diff from the data files they removed and added
 */
public record VersionSourceCounts(long cdf, long rowTracking, long derived) {

  public static final VersionSourceCounts NONE = new VersionSourceCounts(0, 0, 0);

  public VersionSourceCounts plus(VersionSourceCounts other) {
    return new VersionSourceCounts(
        cdf + other.cdf, rowTracking + other.rowTracking, derived + other.derived);
  }
}
