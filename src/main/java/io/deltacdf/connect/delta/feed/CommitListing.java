package io.deltacdf.connect.delta.feed;

import io.delta.kernel.CommitActions;
import io.delta.kernel.utils.CloseableIterator;
import io.deltacdf.connect.delta.log.CommitRanges;
import io.deltacdf.connect.delta.log.DeltaLog;
import io.deltacdf.connect.delta.table.FeedContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The commits the versions phase reads next: listed ahead in runs of {@link #COMMITS_PER_LISTING},
 * with their actions open for reading in order, so that a run of versions costs one listing.
 */
final class CommitListing implements AutoCloseable {

  /** How many commits one log listing plans ahead. */
  private static final int COMMITS_PER_LISTING = 500;

  private final FeedContext context;
  private final DeltaLog log;
  private final Deque<DeltaLog.Commit> pending = new ArrayDeque<>();
  private CloseableIterator<CommitActions> actions;
  private long latestListed = -1;
  private boolean listedBefore;

  CommitListing(FeedContext context, DeltaLog log) {
    this.context = context;
    this.log = log;
  }

  /** Whether a listing found commits before. */
  boolean listedBefore() {
    return listedBefore;
  }

  /**
   * The commit of {@code version}, listing the log from there when nothing listed is left; null
   * when it has not been committed yet. The first listing fails, with the ways out, if the log no
   * longer reaches back to {@code version}; later ones if the version just read is gone (the table
   * was deleted or created again).
   */
  DeltaLog.Commit next(long version) {
    if (pending.isEmpty() && !listFrom(version)) {
      return null;
    }
    return pending.removeFirst();
  }

  /** The actions of the commit {@link #next} returned last, {@code version}. */
  CommitActions actionsOf(long version) {
    CommitActions next = actions.next();
    if (next.getVersion() != version) {
      throw new IllegalStateException(
          "Expected commit " + version + " but the log returned " + next.getVersion());
    }
    return next;
  }

  /** Whether versions after the one returned last are listed already, so they cost no list. */
  boolean moreListed() {
    return !pending.isEmpty();
  }

  /** The newest version a listing found; -1 before the first. */
  long latestListed() {
    return latestListed;
  }

  private boolean listFrom(long version) {
    close();
    List<DeltaLog.Commit> commits =
        listedBefore
            ? log.commitsAfterRead(version, COMMITS_PER_LISTING)
            : log.nextCommits(version, COMMITS_PER_LISTING);
    if (commits.isEmpty()) {
      return false;
    }
    listedBefore = true;
    long last = commits.get(commits.size() - 1).version();
    latestListed = Math.max(latestListed, last);
    pending.addAll(commits);
    actions = CommitRanges.open(context, version, last, CommitRanges.ALL_ACTIONS);
    return true;
  }

  @Override
  public void close() {
    if (actions != null) {
      try {
        actions.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      actions = null;
    }
    pending.clear();
  }
}
