package io.deltacdf.connect.delta.plan;

import java.util.List;

/**
 * The files a version's changes come from, in log order; a file's index is part of a reader's
 * position, so the order never changes between reads of the same version.
 *
 * <p>A commit's files are asked for front to back, and again from the start when a reader is sent
 * back; a huge commit's files are then read from its log, not held ({@link StreamedChangeFiles}).
 */
public interface ChangeFiles extends AutoCloseable {

  ChangeFiles NONE = of(List.of());

  int size();

  /** File {@code index}; cheap for the index after the previous one and for held files. */
  ChangeFile get(int index);

  /**
   * Releases what reading the files holds (open files, a huge commit's temp files); a later {@link
   * #get} reads again.
   */
  @Override
  void close();

  /** Files held in memory. */
  static ChangeFiles of(List<ChangeFile> files) {
    return new ChangeFiles() {
      @Override
      public int size() {
        return files.size();
      }

      @Override
      public ChangeFile get(int index) {
        return files.get(index);
      }

      @Override
      public void close() {}
    };
  }
}
