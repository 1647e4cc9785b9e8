package io.deltacdf.connect.delta.feed;

import io.deltacdf.connect.delta.read.FileRowCursor;

/**
 * A version whose changes are found by comparing the rows its removed files held with the rows its
 * added files hold: by their values ({@link DerivedVersion}) or by their row ids ({@link
 * RowTrackingVersion}).
 */
interface DiffedVersion extends AutoCloseable {

  /** A cursor on file {@code fileIndex} from {@code fromRow} that yields only changed rows. */
  FileRowCursor open(int fileIndex, long fromRow);

  /** Deletes the diff's spill files; a later {@link #open} diffs the version again. */
  @Override
  void close();
}
