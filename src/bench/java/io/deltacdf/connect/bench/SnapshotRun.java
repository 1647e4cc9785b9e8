package io.deltacdf.connect.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The parallel initial snapshot (issue 15, item 4): one table's snapshot read by one task, then
 * by two tasks ({@code snapshot.max.tasks=2}) on two workers of one Connect group, each time to a
 * fresh topic, with the record counts checked and the workers the slice tasks ran on reported.
 * Both worker JVMs run on the same machine, so two tasks share its cores with each other and
 * with the broker: the figure shows what splitting costs or gains here, not what two machines
 * would reach.
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
    String section = String.format("Parallel snapshot: %,d rows in %d files, two workers",
        rows, FILES);
    Tables.Table table = tables.snapshot(rows, FILES);
    try (BenchKafka kafka =
        new BenchKafka(List.of("-Xmx" + options.workerHeap()), options.producer())) {
      kafka.addWorker();
      if (!options.cold()) {
        // Both workers load and JIT-compile the reading path before anything is timed.
        snapshot(kafka, table, "snapshot-warm", 2, null);
      }
      double one = snapshot(kafka, table, "snapshot-1-task", 1, section);
      double two = snapshot(kafka, table, "snapshot-2-tasks", 2, section);
      report.add(section, "ratio 2 tasks / 1 task", Report.ratio(two, one),
          "two cores shared by both workers and the broker");
    }
  }

  /**
   * Registers a connector that reads the table's snapshot in {@code tasks} slices and waits for
   * every row; reports the rate unless {@code section} is null. Returns rows/s.
   */
  private double snapshot(BenchKafka kafka, Tables.Table table, String name, int tasks,
      String section) {
    Map<String, String> config =
        BenchKafka.connectorConfig(table.path().toString(), name, "snapshot");
    config.put("tasks.max", Integer.toString(tasks));
    config.put("snapshot.max.tasks", Integer.toString(tasks));
    Set<String> workers = new TreeSet<>();
    BenchKafka.ConnectorRun run = kafka.runConnector(name, config, table.cdfRows(),
        status -> workersOfRunningTasks(status, workers));
    report.checkCount("snapshot with " + tasks + " task(s)" + (section == null ? ", warm-up" : ""),
        run.records(), table.cdfRows());
    kafka.rest().delete(name);
    kafka.topics().delete(name);
    double rate = run.records() * 1000.0 / Math.max(1, run.millis());
    if (section != null) {
      report.add(section, tasks + (tasks == 1 ? " task" : " tasks") + ": snapshot end to end",
          Report.rate(run.records(), run.millis()),
          String.format("%d ms from registration to last record; tasks ran on %s; %.1f CPU-s"
              + " per million rows, both workers", run.millis(), workers,
              run.workerCpuMillis() / 1000.0 * 1_000_000.0 / Math.max(1, run.records())));
    }
    return rate;
  }

  /** Adds the worker ids of the status's running tasks to {@code workers}. */
  private static void workersOfRunningTasks(JsonNode status, Set<String> workers) {
    for (JsonNode task : status.path("tasks")) {
      if ("RUNNING".equals(task.path("state").asText())) {
        workers.add(task.path("worker_id").asText());
      }
    }
  }
}
