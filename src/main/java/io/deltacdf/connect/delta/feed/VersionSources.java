package io.deltacdf.connect.delta.feed;

import io.deltacdf.connect.change.VersionSourceCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says in the log where each version's change rows come from: at INFO when it differs from the
 * previous version's and for every version row tracking was wanted for but could not pair, else at
 * DEBUG. Counts the versions read to their end by source, for the table's metrics.
 */
final class VersionSources {

  private static final Logger log = LoggerFactory.getLogger(VersionSources.class);

  /** Where a version's change rows come from, spelt as {@code change.source} values are. */
  enum Source {
    CDF,
    ROW_TRACKING,
    DERIVED;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  private final String table;

  /** The planned version's source; null before the first. */
  private Source previous;

  private VersionSourceCounts counts = VersionSourceCounts.NONE;

  VersionSources(String table) {
    this.table = table;
  }

  void used(long version, Source source) {
    if (source != previous) {
      log.info("Table {} version {}: changes from {}", table, version, source.label());
    } else {
      log.debug("Table {} version {}: changes from {}", table, version, source.label());
    }
    previous = source;
  }

  /**
   * Row tracking was wanted for {@code version} but cannot pair its rows: {@code enabled} says
   * whether the table had it on (then some file lacks row ids: written before it was enabled).
   */
  void fellBack(long version, boolean enabled) {
    log.info(
        "Table {} version {}: changes derived by key diff, not row tracking: {}",
        table,
        version,
        enabled
            ? "a file it removes or adds has no row ids (written before row tracking was enabled)"
            : "row tracking (delta.enableRowTracking) is not enabled at this version");
    previous = Source.DERIVED;
  }

  /** The planned version has been read to its end. */
  void finished() {
    counts =
        counts.plus(
            switch (previous) {
              case CDF -> new VersionSourceCounts(1, 0, 0);
              case ROW_TRACKING -> new VersionSourceCounts(0, 1, 0);
              case DERIVED -> new VersionSourceCounts(0, 0, 1);
            });
  }

  VersionSourceCounts counts() {
    return counts;
  }
}
