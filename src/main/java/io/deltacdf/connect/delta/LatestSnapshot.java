package io.deltacdf.connect.delta;

import io.delta.kernel.Snapshot;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.TableAccess;

/**
 * The latest snapshot of a table, loaded on first use and then kept: opening a table resolves its
 * start, checks a stored offset and reads its schemas from one load (a load replays the log since
 * its last checkpoint). Taken from {@link DeltaTable#latestSnapshot()} and passed back to the same
 * table; a new one sees later commits.
 */
public final class LatestSnapshot {

  private final FeedContext context;
  private Snapshot snapshot;

  LatestSnapshot(FeedContext context) {
    this.context = context;
  }

  Snapshot get() {
    if (snapshot == null) {
      snapshot = TableAccess.latestSnapshot(context);
    }
    return snapshot;
  }

  /**
   * The latest version, loading the snapshot if not yet loaded.
   *
   * @throws DeltaFeedException of kind TABLE_NOT_FOUND when the path holds no table (any more)
   */
  public long version() {
    return get().getVersion();
  }
}
