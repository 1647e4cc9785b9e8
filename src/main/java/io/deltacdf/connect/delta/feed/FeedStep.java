package io.deltacdf.connect.delta.feed;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.read.OpenedFile;

/**
 * What a phase of the feed found at a position: a file to read, a position to move on to (there was
 * nothing left to read where it was), or neither (the table has no such commit yet).
 */
public record FeedStep(OpenedFile file, ChangePosition moveTo) {

  public static final FeedStep CAUGHT_UP = new FeedStep(null, null);

  public static FeedStep read(OpenedFile file) {
    return new FeedStep(file, null);
  }

  public static FeedStep moveTo(ChangePosition position) {
    return new FeedStep(null, position);
  }
}
