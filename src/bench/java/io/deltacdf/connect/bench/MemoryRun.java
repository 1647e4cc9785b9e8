package io.deltacdf.connect.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Peak heap of a worker limited to -Xmx256m while it streams a large initial snapshot, and while it
 * streams one large commit, each on a fresh worker: the live heap sampled with full GCs, and the
 * most heap in use before a collection from the worker's GC log.
 */
final class MemoryRun {

  private static final String HEAP = "256m";

  /**
   * Connect keeps every record in flight (sent, not yet acknowledged) reachable from its producer
   * callback, with its Structs, headers and offset: ~2 KB of heap per ~330-byte record. The default
   * 32 MiB producer buffer then holds ~100,000 of them, ~200 MiB, more than a 256 MiB heap has; 8
   * MiB caps them at ~50 MiB (see docs/benchmark.md).
   */
  static final String SMALL_HEAP_BUFFER_MEMORY = Integer.toString(8 * 1024 * 1024);

  private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->\\d+M\\(\\d+M\\)");

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
    measure(
        section,
        String.format("initial snapshot of %,d rows", options.snapshotRows()),
        tables.snapshot(options.snapshotRows()),
        "snapshot");
    measure(
        section,
        String.format("one commit of %,d rows", options.commitRows()),
        tables.singleCommit(options.commitRows()),
        "earliest");
    new HugeRun(options, report).run();
  }

  private void measure(String section, String what, Tables.Table table, String startMode) {
    Path gcLog =
        options.workDir().resolve("logs/gc-" + startMode + "-" + System.nanoTime() + ".log");
    Map<String, String> producer = new HashMap<>(options.producer());
    producer.putIfAbsent("buffer.memory", SMALL_HEAP_BUFFER_MEMORY);
    try (BenchKafka kafka =
        new BenchKafka(List.of("-Xmx" + HEAP, "-Xlog:gc:file=" + gcLog), producer)) {
      String name = "memory-" + startMode;
      BenchKafka.ConnectorRun run;
      long liveMib;
      try (LiveHeapSampler live = new LiveHeapSampler(kafka.workerPid())) {
        run =
            kafka.runConnector(
                name,
                BenchKafka.connectorConfig(table.path().toString(), name, startMode),
                table.cdfRows());
        liveMib = live.maxMib();
      }
      report.checkCount(what, run.records(), table.cdfRows());
      report.add(
          section,
          what,
          liveMib + " MiB peak live heap",
          String.format(
              "%d MiB peak heap in use (GC log); worker peak RSS %d MiB;"
                  + " producer.buffer.memory=%s; %s (slowed by the sampling)",
              peakHeapInUse(gcLog),
              run.workerPeakRssMib(),
              producer.get("buffer.memory"),
              Report.rate(run.records(), run.millis())));
    }
  }

  /** The most heap in use before a collection, in MiB, from a -Xlog:gc file. */
  static long peakHeapInUse(Path gcLog) {
    long peak = 0;
    try {
      for (String line : Files.readAllLines(gcLog)) {
        Matcher m = GC_LINE.matcher(line);
        if (m.find()) {
          peak = Math.max(peak, Long.parseLong(m.group(1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return peak;
  }
}
