package io.deltacdf.connect.delta.log;

import java.util.List;

/**
 * Computes {@code _commit_timestamp} as Spark does: a commit's in-commit timestamp when it has one,
 * else its file's modification time made strictly increasing (a time not after the previous
 * commit's becomes the previous one plus 1 ms). The chain is seeded from up to 100 commits before
 * the first version read, as Spark seeds it, and runs over modification times of every commit,
 * in-commit timestamps or not.
 */
public final class CommitTimestamps {

  public static final int SEED_COMMITS = 100;

  private long lastVersion;
  private long lastAdjusted;

  private CommitTimestamps(long lastVersion, long lastAdjusted) {
    this.lastVersion = lastVersion;
    this.lastAdjusted = lastAdjusted;
  }

  /** A chain ready for {@code firstVersion}, seeded from the commits listed before it. */
  public static CommitTimestamps startingAt(DeltaLog log, long firstVersion) {
    CommitTimestamps chain = new CommitTimestamps(-1, Long.MIN_VALUE);
    long seedFrom = Math.max(firstVersion - SEED_COMMITS, 0);
    List<DeltaLog.Commit> seed = log.commitsFrom(seedFrom, (int) (firstVersion - seedFrom));
    if (seed.isEmpty() && seedFrom < firstVersion) {
      // Older commits were cleaned up: Spark then starts from the earliest file still there.
      long earliest = log.earliestCommitVersion();
      if (earliest >= 0 && earliest < firstVersion) {
        seed = log.commitsFrom(earliest, (int) (firstVersion - earliest));
      }
    }
    for (DeltaLog.Commit commit : seed) {
      chain.adjust(commit);
    }
    return chain;
  }

  /**
   * Advances the chain over {@code commit} (versions must come in order) and returns its change
   * feed timestamp.
   */
  public long next(DeltaLog.Commit commit, java.util.Optional<Long> inCommitTimestamp) {
    long adjusted = adjust(commit);
    return inCommitTimestamp.orElse(adjusted);
  }

  private long adjust(DeltaLog.Commit commit) {
    // A gap (history cleaned up before the chain's first commit) restarts the chain.
    boolean chained = lastVersion >= 0 && commit.version() == lastVersion + 1;
    long time = commit.modificationTime();
    lastAdjusted = chained && lastAdjusted >= time ? lastAdjusted + 1 : time;
    lastVersion = commit.version();
    return lastAdjusted;
  }
}
