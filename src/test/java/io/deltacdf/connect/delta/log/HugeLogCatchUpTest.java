package io.deltacdf.connect.delta.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
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
 * A reader that starts at version 0 of a long log catches up on it with listings that grow with the
 * versions it reads: a listing per run of commits, each stopping after its run, so twice the
 * versions cost about twice the listings, not four times. Counted through {@link
 * CountingFileSystem} (a local folder has no listing from a start name: each listing is one pass
 * over its names, keeping a page of them).
 *
 * <p>CI catches up 2,000 versions (and 1,000 to compare); {@code -Dhuge.log.versions=100000} runs
 * the full size.
 */
class HugeLogCatchUpTest {

  private static final int VERSIONS = Integer.getInteger("huge.log.versions", 2_000);

  @TempDir Path dir;

  @Test
  void listingsGrowWithTheVersionsRead() throws IOException {
    Map<String, Long> half = catchUp(VERSIONS / 2);
    Map<String, Long> full = catchUp(VERSIONS);
    System.out.printf(
        "HugeLogCatchUpTest: %,d versions %s; %,d versions %s%n",
        VERSIONS / 2, half, VERSIONS, full);
    long lists = full.get("list calls");
    assertThat(lists).isPositive().isLessThanOrEqualTo(2 * half.get("list calls") + 2);
    // A listing reads a run of hundreds of commits, not one commit.
    assertThat(lists).isLessThanOrEqualTo(VERSIONS / 100 + 4);
  }

  /** The storage calls of reading a log of {@code versions} versions from version 0. */
  private Map<String, Long> catchUp(int versions) throws IOException {
    Path path = dir.resolve("log-" + versions);
    SyntheticLog.createWithoutRows(path, versions);
    String uri = CountingFileSystem.SCHEME + "://" + path.toAbsolutePath();
    try (DeltaTable table = DeltaTable.open(uri, CountingFileSystem.settings(), false);
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(0))) {
      CountingFileSystem.reset();
      while (feed.next(1_000) != null) {
        // versions without rows: nothing to collect
      }
      assertThat(feed.position()).isEqualTo(ChangePosition.InVersion.start(versions));
      return CountingFileSystem.counts();
    }
  }
}
