package io.deltacdf.connect.delta.testing;

import io.deltacdf.connect.bench.ChildJvm;
import io.deltacdf.connect.bench.ProcStatus;
import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads one version of a table in a JVM of its own (started with a small heap by {@link
 * HugeCommitTest} and {@link HugeDvCommitTest}) from a file index inside it, and prints {@code
 * version type count} lines and the rows, time and peak RSS as benchmark results, so the test (and
 * the benchmark) can check every row of a huge commit streamed through.
 */
public final class HugeCommitReader {

  private HugeCommitReader() {}

  /** Arguments: table path, version, file index to start at. */
  public static void main(String[] args) {
    String path = args[0];
    long version = Long.parseLong(args[1]);
    int fileIndex = Integer.parseInt(args[2]);
    Map<String, Long> counts = new TreeMap<>();
    long start = System.nanoTime();
    try (DeltaTable table = DeltaTable.open(path, Map.of(), false);
        DeltaChangeFeed feed =
            table.openFeed(new ChangePosition.InVersion(version, fileIndex, 0))) {
      ChangeBatch batch;
      while ((batch = feed.next(5_000)) != null) {
        for (ChangeRow row : batch.rows()) {
          counts.merge(row.version() + " " + row.type().label(), 1L, Long::sum);
        }
      }
    }
    counts.forEach((key, count) -> System.out.println(key + " " + count));
    ChildJvm.result("rows", counts.values().stream().mapToLong(Long::longValue).sum());
    ChildJvm.result("seconds", String.format("%.1f", (System.nanoTime() - start) / 1e9));
    ChildJvm.result("peakRssMib", ProcStatus.ownPeakRssMib());
  }
}
