package io.deltacdf.connect.delta.feed;

import io.deltacdf.connect.change.ChangePosition;

/**
 * One phase of a feed, the initial snapshot or the versions after it: it opens the file at a
 * position of its own kind {@code P}, then says where each row of that file and the file's end
 * leave the feed. The file it opened last is its cursor, so the feed asks it without telling it
 * again.
 */
public interface Phase<P extends ChangePosition> extends AutoCloseable {

  /**
   * The file at {@code at}, or where to move on to when nothing is left there, or {@link
   * FeedStep#CAUGHT_UP}.
   */
  FeedStep open(P at);

  /** The position of row {@code nextRow} of the file opened last. */
  P within(long nextRow);

  /** The position right after the file opened last: the next phase's first once this one ends. */
  ChangePosition afterFile();

  /** The file opened last was read to its end. */
  void fileFinished();

  @Override
  void close();
}
