package io.deltacdf.connect.bench;

import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.util.Arrays;
import java.util.Map;

/**
 * The cost of an idle poll: {@link DeltaChangeFeed#next} on a feed that has caught up (what every
 * task poll after poll.interval.ms does), on a short and on a long log with checkpoints, timed in
 * this JVM after a warm-up.
 */
final class IdlePollRun {

  private static final int WARMUP = 50;
  private static final int MEASURED = 300;

  private final BenchOptions options;
  private final Tables tables;
  private final Report report;

  IdlePollRun(BenchOptions options, Tables tables, Report report) {
    this.options = options;
    this.tables = tables;
    this.report = report;
  }

  void run() {
    String section = "Idle poll: DeltaChangeFeed.next finding nothing (local file system)";
    long[] small = measure(tables.longLog(options.smallVersions()));
    long[] large = measure(tables.longLog(options.largeVersions()));
    report.add(
        section,
        String.format("%,d versions: p50 / mean", options.smallVersions()),
        micros(Report.percentile(small, 50)) + " / " + micros(mean(small)),
        "p99 " + micros(Report.percentile(small, 99)));
    report.add(
        section,
        String.format("%,d versions: p50 / mean", options.largeVersions()),
        micros(Report.percentile(large, 50)) + " / " + micros(mean(large)),
        "p99 " + micros(Report.percentile(large, 99)));
    report.add(
        section,
        "ratio long / short log (p50)",
        Report.ratio(Report.percentile(large, 50), Report.percentile(small, 50)),
        "target <= 1.5");
  }

  /** Nanoseconds per idle {@code next}, sorted. */
  private static long[] measure(Tables.Table table) {
    try (DeltaTable delta = DeltaTable.open(table.path().toString(), Map.of(), false);
        DeltaChangeFeed feed = delta.openFeed(delta.resolveStart(new StartSpec.Latest()))) {
      for (int i = 0; i < WARMUP; i++) {
        requireIdle(feed);
      }
      long[] nanos = new long[MEASURED];
      for (int i = 0; i < MEASURED; i++) {
        long start = System.nanoTime();
        requireIdle(feed);
        nanos[i] = System.nanoTime() - start;
      }
      Arrays.sort(nanos);
      return nanos;
    }
  }

  private static void requireIdle(DeltaChangeFeed feed) {
    if (feed.next(10_000) != null) {
      throw new IllegalStateException("The feed found rows after the latest version");
    }
  }

  private static long mean(long[] nanos) {
    return (long) Arrays.stream(nanos).average().orElse(0);
  }

  private static String micros(long nanos) {
    return String.format("%,.0f us", nanos / 1000.0);
  }
}
