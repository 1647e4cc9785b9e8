package io.deltacdf.connect.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Peak heap of a worker limited to -Xmx256m while it streams a large initial snapshot, and while
 * it streams one large commit. Each runs on a fresh worker whose GC log gives the heap in use
 * before each collection (the peak) and after it (what was still live).
 */
final class MemoryRun {

  private static final String HEAP = "256m";
  private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

  private final BenchOptions options;
  private final Tables tables;
  private final Report report;

  MemoryRun(BenchOptions options, Tables tables, Report report) {
    this.options = options;
    this.tables = tables;
    this.report = report;
  }

  void run() {
    String section = "Memory: worker at -Xmx" + HEAP;
    measure(section, String.format("initial snapshot of %,d rows", options.snapshotRows()),
        tables.snapshot(options.snapshotRows()), "snapshot");
    measure(section, String.format("one commit of %,d rows", options.commitRows()),
        tables.singleCommit(options.commitRows()), "earliest");
  }

  private void measure(String section, String what, Tables.Table table, String startMode) {
    Path gcLog = options.workDir().resolve("logs/gc-" + startMode + "-" + System.nanoTime()
        + ".log");
    try (BenchKafka kafka = new BenchKafka(
        List.of("-Xmx" + HEAP, "-Xlog:gc:file=" + gcLog), options.producer())) {
      String name = "memory-" + startMode;
      BenchKafka.ConnectorRun run = kafka.runConnector(name,
          BenchKafka.connectorConfig(table.path().toString(), name, startMode),
          table.cdfRows());
      report.checkCount(what, run.records(), table.cdfRows());
      long[] heap = peakHeap(gcLog);
      report.add(section, what, heap[0] + " MiB peak heap",
          String.format("%d MiB max live after GC; %s; worker peak RSS %d MiB",
              heap[1], Report.rate(run.records(), run.millis()), run.workerPeakRssMib()));
    }
  }

  /** Heap in use before a collection (max) and after one (max), in MiB, from a -Xlog:gc file. */
  static long[] peakHeap(Path gcLog) {
    long before = 0;
    long after = 0;
    try {
      for (String line : Files.readAllLines(gcLog)) {
        Matcher m = GC_LINE.matcher(line);
        if (m.find()) {
          before = Math.max(before, Long.parseLong(m.group(1)));
          after = Math.max(after, Long.parseLong(m.group(2)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new long[] {before, after};
  }
}
