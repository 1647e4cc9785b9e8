package io.deltacdf.connect.change;

import java.util.function.Function;

/**
 * A point in a table's change feed: everything before it has been read.
 *
 * <p>The feed is a sequence of versions; each version is a sequence of change files in log order
 * (see the reader's documentation), and each file a sequence of physical Parquet rows. An optional
 * initial snapshot comes first, its files ordered by path.
 */
public sealed interface ChangePosition {

  /** The commit version this position lies in. */
  long version();

  /** Whether this position lies inside a snapshot rather than inside a version's changes. */
  boolean inSnapshot();

  /** What {@code inSnapshot} or {@code inVersion} makes of this position, by its kind. */
  <R> R match(
      Function<? super InSnapshot, ? extends R> inSnapshot,
      Function<? super InVersion, ? extends R> inVersion);

  /**
   * Inside the snapshot of {@code version}: files whose path sorts before {@code path} are done,
   * and rows of {@code path} with a physical index below {@code nextRow} are done. An empty path
   * means the snapshot has not started.
   */
  record InSnapshot(long version, String path, long nextRow) implements ChangePosition {
    public static InSnapshot start(long version) {
      return new InSnapshot(version, "", 0);
    }

    @Override
    public boolean inSnapshot() {
      return true;
    }

    @Override
    public <R> R match(
        Function<? super InSnapshot, ? extends R> inSnapshot,
        Function<? super InVersion, ? extends R> inVersion) {
      return inSnapshot.apply(this);
    }
  }

  /**
   * Inside the changes of {@code version}: change files with an index below {@code fileIndex} are
   * done, and rows of file {@code fileIndex} with a physical index below {@code nextRow} are done.
   */
  record InVersion(long version, int fileIndex, long nextRow) implements ChangePosition {
    public static InVersion start(long version) {
      return new InVersion(version, 0, 0);
    }

    @Override
    public boolean inSnapshot() {
      return false;
    }

    @Override
    public <R> R match(
        Function<? super InSnapshot, ? extends R> inSnapshot,
        Function<? super InVersion, ? extends R> inVersion) {
      return inVersion.apply(this);
    }
  }
}
