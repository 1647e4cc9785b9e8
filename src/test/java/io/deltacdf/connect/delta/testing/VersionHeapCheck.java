package io.deltacdf.connect.delta.testing;

import io.deltacdf.connect.bench.ProcStatus;
import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads one version of a table in a JVM of its own (started by a test with the heap it checks) and
 * prints its row count, CPU time and peak heap as one {@code <source>-heap ...} line, such as
 * {@code derived-heap rows=...}. Arguments: table path, version, change source (enum name); key
 * column {@code id}.
 */
public final class VersionHeapCheck {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private VersionHeapCheck() {}

  public static void main(String[] args) {
    long version = Long.parseLong(args[1]);
    ChangeSource source = ChangeSource.valueOf(args[2]);
    long start = THREADS.getCurrentThreadCpuTime();
    long wallStart = System.nanoTime();
    long rows = 0;
    long pairs = 0;
    try (DeltaTable table =
            DeltaTable.open(args[0], Map.of(), false).withChangeSource(source, List.of("id"));
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(version))) {
      ChangeBatch batch;
      while ((batch = feed.next(10_000)) != null
          && !batch.rows().isEmpty()
          && batch.rows().get(0).version() == version) {
        rows += batch.rows().size();
        pairs += batch.rows().stream().filter(r -> r.type() == ChangeType.UPDATE_PREIMAGE).count();
      }
    }
    long peak = 0;
    for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.printf(
        "%s-heap rows=%d pairs=%d cpu-seconds=%.1f wall-seconds=%.1f peak-heap-mib=%d"
            + " max-heap-mib=%d peak-rss-mib=%d%n",
        source.name().toLowerCase(Locale.ROOT).replace('_', '-'),
        rows,
        pairs,
        (THREADS.getCurrentThreadCpuTime() - start) / 1e9,
        (System.nanoTime() - wallStart) / 1e9,
        peak >> 20,
        Runtime.getRuntime().maxMemory() >> 20,
        ProcStatus.ownPeakRssMib());
  }
}
