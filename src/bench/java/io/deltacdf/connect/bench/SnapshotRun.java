package io.deltacdf.connect.bench;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The parallel initial snapshot: one table's snapshot read by one task, then by two tasks ({@code
 * snapshot.max.tasks=2}) on two workers of one Connect group, each time to a fresh topic, with the
 * record counts checked and the workers the slice tasks ran on reported. Both worker JVMs run on
 * the same machine, so two tasks share its cores with each other and with the broker: the figure
 * shows what splitting costs or gains here, not what two machines would reach.
 */
final class SnapshotRun {

  /** Files of the snapshot table: enough for two slices of many files each. */
  static final int FILES = 32;

  private final BenchOptions options;
  private final Tables tables;
  private final Report report;

  SnapshotRun(BenchOptions options, Tables tables, Report report) {
    this.options = options;
    this.tables = tables;
    this.report = report;
  }

  void run() {
    long rows = options.parallelSnapshotRows();
    String section =
        String.format("Parallel snapshot: %,d rows in %d files, two workers", rows, FILES);
    Tables.Table table = tables.snapshot(rows, FILES);
    try (BenchKafka kafka =
        new BenchKafka(List.of("-Xmx" + options.workerHeap()), options.producer())) {
      kafka.addWorker();
      if (!options.cold()) {
        // Both workers load and JIT-compile the reading path before anything is timed.
        snapshot(kafka, table, "snapshot-warm", 2);
      }
      double one = report(section, snapshot(kafka, table, "snapshot-1-task", 1));
      double two = report(section, snapshot(kafka, table, "snapshot-2-tasks", 2));
      report.add(
          section,
          "ratio 2 tasks / 1 task",
          Report.ratio(two, one),
          "two cores shared by both workers and the broker");
    }
  }

  /** A snapshot run, and the workers its tasks were seen running on. */
  private record Snapshot(int tasks, BenchKafka.ConnectorRun run, Set<String> workers) {}

  /**
   * Registers a connector that reads the table's snapshot in {@code tasks} slices, waits for every
   * row and checks the count.
   */
  private Snapshot snapshot(BenchKafka kafka, Tables.Table table, String name, int tasks) {
    Map<String, String> config =
        BenchKafka.connectorConfig(table.path().toString(), name, "snapshot");
    config.put("tasks.max", Integer.toString(tasks));
    config.put("snapshot.max.tasks", Integer.toString(tasks));
    Set<String> workers = new TreeSet<>();
    BenchKafka.ConnectorRun run =
        kafka.runConnector(
            name,
            config,
            table.cdfRows(),
            status -> BenchKafka.workersOfRunningTasks(status, workers));
    report.checkCount(name, run.records(), table.cdfRows());
    kafka.rest().delete(name);
    kafka.topics().delete(name);
    return new Snapshot(tasks, run, workers);
  }

  /** Reports a timed snapshot; returns its rows/s. */
  private double report(String section, Snapshot snapshot) {
    BenchKafka.ConnectorRun run = snapshot.run();
    report.add(
        section,
        snapshot.tasks() + (snapshot.tasks() == 1 ? " task" : " tasks") + ": snapshot end to end",
        Report.rate(run.records(), run.millis()),
        String.format(
            "%d ms from registration to last record; tasks ran on %s; %.1f CPU-s"
                + " per million rows, both workers",
            run.millis(),
            snapshot.workers(),
            Report.cpuSecondsPerMillion(run.workerCpuMillis(), run.records())));
    return run.records() * 1000.0 / Math.max(1, run.millis());
  }
}
