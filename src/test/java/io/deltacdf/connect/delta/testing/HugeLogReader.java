package io.deltacdf.connect.delta.testing;

import io.deltacdf.connect.bench.ChildJvm;
import io.deltacdf.connect.bench.ProcStatus;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Catches up on a long log from version 0 in a JVM of its own (started by the benchmark with a
 * small heap) through {@link CountingFileSystem}, and prints the listings, time and peak RSS as
 * benchmark results.
 */
public final class HugeLogReader {

  private HugeLogReader() {}

  /** Arguments: table folder (written first when missing), versions. */
  public static void main(String[] args) throws IOException {
    Path path = Path.of(args[0]);
    int versions = Integer.parseInt(args[1]);
    if (!Files.exists(path)) {
      SyntheticLog.createWithoutRows(path, versions);
    }
    String uri = CountingFileSystem.SCHEME + "://" + path.toAbsolutePath();
    long start = System.nanoTime();
    try (DeltaTable table = DeltaTable.open(uri, CountingFileSystem.settings(), false);
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(0))) {
      CountingFileSystem.reset();
      while (feed.next(1_000) != null) {
        // versions without rows: nothing to collect
      }
      if (!feed.position().equals(ChangePosition.InVersion.start(versions))) {
        throw new IllegalStateException("Stopped at " + feed.position());
      }
    }
    Map<String, Long> counts = CountingFileSystem.counts();
    ChildJvm.result("seconds", String.format("%.1f", (System.nanoTime() - start) / 1e9));
    ChildJvm.result("lists", counts.get("list calls"));
    ChildJvm.result("listedEntries", counts.get("listed entries"));
    ChildJvm.result("peakRssMib", ProcStatus.ownPeakRssMib());
  }
}
