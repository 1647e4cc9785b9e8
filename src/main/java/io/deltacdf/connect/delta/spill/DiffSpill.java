package io.deltacdf.connect.delta.spill;

import java.nio.file.Path;

/**
 * When a diffed version's fingerprints leave the heap: above {@code maxRecordsInMemory} candidate
 * rows they are sorted in runs written to local temp files under {@code directory} and merged, and
 * the diff's lookups read those files a block at a time (page cache, not heap); closing the diff
 * closes and deletes them. The plan of a commit too large to hold pairs its deletion vector updates
 * within the same limits.
 *
 * @param maxRecordsInMemory candidate rows (and key fingerprints) held on the heap at most
 * @param directory where a version's temp folder is made
 */
public record DiffSpill(int maxRecordsInMemory, Path directory) {

  /** About 24 MiB of heap at most for the candidates of one version (three longs each). */
  public static final int DEFAULT_MAX_RECORDS_IN_MEMORY = 1 << 20;

  public DiffSpill {
    if (maxRecordsInMemory < 2) {
      throw new IllegalArgumentException("At least two records must fit in memory");
    }
  }

  /** The default threshold, in the JVM's temp folder ({@code java.io.tmpdir}). */
  public static DiffSpill defaults() {
    return new DiffSpill(
        DEFAULT_MAX_RECORDS_IN_MEMORY, Path.of(System.getProperty("java.io.tmpdir")));
  }
}
