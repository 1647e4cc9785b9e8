package io.deltacdf.connect.delta.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.CountingFileSystem;
import io.deltacdf.connect.delta.testing.SyntheticLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A feed that has caught up with its table polls for new commits; such an idle poll makes the same
 * calls to storage on a log of 10,000 versions as on one of 100: no listing of the log, no
 * snapshot, no file read. Counted through {@link CountingFileSystem}, not timed (the times are
 * printed for docs/performance.md).
 */
class IdlePollCostTest {

  private static final int TIMED_POLLS = 500;

  @TempDir Path dir;

  /** The calls of one idle poll, and the mean time of one, in both idle states of a feed. */
  private record IdleCost(
      Map<String, Long> beforeFirstVersion,
      double beforeMs,
      Map<String, Long> afterAVersion,
      double afterMs) {}

  @Test
  void idlePollCostDoesNotGrowWithTheLog() throws IOException {
    IdleCost shortLog = measure(100);
    IdleCost longLog = measure(10_000);
    print(100, shortLog);
    print(10_000, longLog);
    assertThat(longLog.beforeFirstVersion()).isEqualTo(shortLog.beforeFirstVersion());
    assertThat(longLog.afterAVersion()).isEqualTo(shortLog.afterAVersion());
    // The feed's calls do reach the counting file system.
    assertThat(shortLog.afterAVersion().get("getFileStatus calls")).isPositive();
  }

  private static void print(int versions, IdleCost cost) {
    System.out.printf(
        "IdlePollCostTest: %,d versions: idle poll before the first new version"
            + " %s, %.3f ms; after reading one %s, %.3f ms%n",
        versions, cost.beforeFirstVersion(), cost.beforeMs(), cost.afterAVersion(), cost.afterMs());
  }

  private IdleCost measure(int versions) throws IOException {
    Path path = dir.resolve("log-" + versions);
    SyntheticLog log = SyntheticLog.create(path, versions);
    String uri = CountingFileSystem.SCHEME + "://" + path.toAbsolutePath();
    try (DeltaTable table = DeltaTable.open(uri, CountingFileSystem.settings(), false);
        DeltaChangeFeed feed = table.openFeed(table.resolveStart(new StartSpec.Latest()))) {
      // Started at the latest version: polls wait for the first version after it.
      Map<String, Long> before = idlePollCalls(feed);
      double beforeMs = idlePollMs(feed);
      // Once a version is read, polls also check that it is still there (a recreated table).
      log.commit();
      assertThat(feed.next(100)).isNull(); // the new version has no rows, but it was read:
      assertThat(feed.position()).isEqualTo(ChangePosition.InVersion.start(versions + 1));
      assertThat(feed.progress().latestKnownVersion()).isEqualTo(versions);
      Map<String, Long> after = idlePollCalls(feed);
      double afterMs = idlePollMs(feed);
      return new IdleCost(before, beforeMs, after, afterMs);
    }
  }

  /** The calls of one idle poll (not the first one, which may still set things up). */
  private static Map<String, Long> idlePollCalls(DeltaChangeFeed feed) {
    assertThat(feed.next(100)).isNull();
    CountingFileSystem.reset();
    assertThat(feed.next(100)).isNull();
    return CountingFileSystem.counts();
  }

  private static double idlePollMs(DeltaChangeFeed feed) {
    for (int i = 0; i < TIMED_POLLS; i++) {
      feed.next(100); // warm-up: compiled code, warm file system caches
    }
    long start = System.nanoTime();
    for (int i = 0; i < TIMED_POLLS; i++) {
      feed.next(100);
    }
    return (System.nanoTime() - start) / 1e6 / TIMED_POLLS;
  }
}
