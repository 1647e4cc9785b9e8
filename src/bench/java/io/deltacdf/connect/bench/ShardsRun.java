package io.deltacdf.connect.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One table's change stream split by key into N = 1, 2 and 4 shards ({@code table.shards=N}, {@code
 * tasks.max=N}) on two workers of one Connect group: rows/s end to end, the workers' CPU per
 * million change rows in total and per shard, the read amplification, and the rows/s N free cores
 * would reach if each shard were bounded only by its own CPU per row. Both workers and the broker
 * share this machine's cores, so the measured rate shows what sharding costs or gains here; the
 * projection is a projection, not a measurement.
 */
final class ShardsRun {

  private static final List<Integer> COUNTS = List.of(1, 2, 4);
  private static final int CHART_WIDTH = 50;

  /** The connector's batch.max.rows default, as the throughput part's reader ceiling reads. */
  private static final int BATCH_ROWS = 10_000;

  private final BenchOptions options;
  private final Jvms jvms;
  private final Tables tables;
  private final Report report;

  ShardsRun(BenchOptions options, Jvms jvms, Tables tables, Report report) {
    this.options = options;
    this.jvms = jvms;
    this.tables = tables;
    this.report = report;
  }

  void run() {
    Tables.Table table = tables.customers(options.rows(), false);
    String section =
        String.format(
            "Shards: the throughput table (%,d rows inserted, UPDATE 20%%, DELETE 5%%; %,d change"
                + " rows), two workers",
            options.rows(), table.cdfRows());
    readerAlone(section, table);
    try (BenchKafka kafka =
        new BenchKafka(List.of("-Xmx" + options.workerHeap()), options.producer())) {
      kafka.addWorker();
      List<WorkerJmx> workers = kafka.workerPids().stream().map(WorkerJmx::new).toList();
      try {
        if (!options.cold()) {
          // Both workers load and JIT-compile the reading and sending path before anything is
          // timed.
          measure(kafka, workers, table, "shards-warm", COUNTS.get(COUNTS.size() - 1));
        }
        List<Sharded> runs = new ArrayList<>();
        for (int count : COUNTS) {
          runs.add(measure(kafka, workers, table, "shards-" + count, count));
        }
        runs.forEach(run -> report(section, run, runs.get(0)));
        chart(section, runs);
      } finally {
        workers.forEach(WorkerJmx::close);
      }
    }
  }

  /**
   * Our reader alone (no conversion, no Kafka), each read in a JVM of its own: the whole table's,
   * then shard 0's of each N, which passes over the other shards' rows decoding only their key. Its
   * CPU over the whole table's is the read's CPU amplification per shard.
   */
  private void readerAlone(String section, Tables.Table table) {
    long wholeCpu = 0;
    for (int count : COUNTS) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  table.path().toString(),
                  Integer.toString(BATCH_ROWS),
                  Integer.toString(options.cold() ? 1 : 3)));
      if (count > 1) {
        args.addAll(List.of("id", Integer.toString(count)));
      }
      Map<String, String> read =
          jvms.runTest(
              options.workDir().resolve("logs/shard-read-" + count + ".log"),
              "1g",
              KernelRead.class.getName(),
              args.toArray(String[]::new));
      long cpu = Long.parseLong(read.get("cpu_ms"));
      long rows = Long.parseLong(read.get("rows"));
      if (count == 1) {
        report.checkCount("reader alone", rows, table.cdfRows());
        wholeCpu = cpu;
      }
      double ofWhole = cpu / (double) Math.max(1, wholeCpu);
      report.add(
          section,
          (count == 1 ? "1 shard" : count + " shards") + ": reader alone, one shard's read",
          Report.seconds(Report.cpuSecondsPerMillion(cpu, table.cdfRows())),
          String.format(
              "per million change rows read, %,d kept; %d ms of the reader JVM's CPU (/proc) in"
                  + " the timed pass, %.2fx the whole table's read: all %d shards read with"
                  + " %.2fx its CPU",
              rows, cpu, ofWhole, count, ofWhole * count));
    }
  }

  /**
   * A run with {@code shards} shards.
   *
   * @param taskCpuMillis CPU each task thread used, by task: task i reads shard i, as the connector
   *     deals a table's shards to tasks in turn and there are as many tasks as shards
   * @param shards what each shard's metrics said, by shard
   */
  private record Sharded(
      int count,
      BenchKafka.ConnectorRun run,
      Set<String> workers,
      List<Long> taskCpuMillis,
      List<WorkerJmx.TableFigures> shards) {

    /** Worker CPU outside the task threads: producers' network threads, GC, JIT, the herder. */
    long otherCpuMillis() {
      return run.workerCpuMillis() - taskCpuMillis.stream().mapToLong(Long::longValue).sum();
    }

    /** The CPU of shard {@code i}: its task thread and its share, by rows, of the other CPU. */
    double shardCpuMillis(int i) {
      return taskCpuMillis.get(i)
          + otherCpuMillis() * (double) shards.get(i).rowsSent() / Math.max(1, run.records());
    }

    /** Rows/s on {@code count} free cores: every shard on its own, the slowest one bounding. */
    double projectedRowsPerSecond() {
      double slowest = 0;
      for (int i = 0; i < count; i++) {
        slowest = Math.max(slowest, shardCpuMillis(i));
      }
      return run.records() * 1000.0 / Math.max(1, slowest);
    }

    double rowsPerSecond() {
      return run.records() * 1000.0 / Math.max(1, run.millis());
    }

    long bytesRead() {
      return shards.stream().mapToLong(WorkerJmx.TableFigures::bytesRead).sum();
    }
  }

  private Sharded measure(
      BenchKafka kafka, List<WorkerJmx> workers, Tables.Table table, String name, int count) {
    Map<String, String> config =
        BenchKafka.connectorConfig(table.path().toString(), name, "earliest");
    config.putAll(options.connector());
    config.put("tasks.max", Integer.toString(count));
    config.put("table.shards", Integer.toString(count));
    List<Map<Long, Long>> before = workers.stream().map(WorkerJmx::threadCpuNanos).toList();
    Set<String> seen = new TreeSet<>();
    BenchKafka.ConnectorRun run =
        kafka.runConnector(
            name,
            config,
            table.cdfRows(),
            status -> BenchKafka.workersOfRunningTasks(status, seen));
    report.checkCount(name, run.records(), table.cdfRows());
    Long[] taskCpu = new Long[count];
    WorkerJmx.TableFigures[] shards = new WorkerJmx.TableFigures[count];
    for (int w = 0; w < workers.size(); w++) {
      workers.get(w).taskCpuMillisSince(name, before.get(w)).forEach((t, ms) -> taskCpu[t] = ms);
      workers
          .get(w)
          .tables(name)
          .forEach((partition, figures) -> shards[shardIndex(partition, count)] = figures);
    }
    kafka.rest().delete(name);
    kafka.topics().delete(name);
    for (int i = 0; i < count; i++) {
      if (taskCpu[i] == null || shards[i] == null) {
        throw new IllegalStateException(
            name + ": no task thread or metrics of task/shard " + i + " in either worker");
      }
    }
    return new Sharded(count, run, seen, List.of(taskCpu), List.of(shards));
  }

  /** The shard of a metrics' table name: "path (shard i/N)", or the whole table's "path". */
  private static int shardIndex(String partition, int count) {
    int at = partition.lastIndexOf("(shard ");
    if (at < 0) {
      return 0;
    }
    String label = partition.substring(at + "(shard ".length(), partition.length() - 1);
    int index = Integer.parseInt(label.substring(0, label.indexOf('/')));
    if (index >= count) {
      throw new IllegalStateException("Metrics of " + partition + " in a run of " + count);
    }
    return index;
  }

  private void report(String section, Sharded run, Sharded one) {
    String label = run.count() + (run.count() == 1 ? " shard" : " shards");
    long rows = run.run().records();
    report.add(
        section,
        label + ": end to end",
        Report.rate(rows, run.run().millis()),
        String.format(
            "%d ms from registration to last record; tasks ran on %s",
            run.run().millis(), run.workers()));
    double total = Report.cpuSecondsPerMillion(run.run().workerCpuMillis(), rows);
    double totalOne = Report.cpuSecondsPerMillion(one.run().workerCpuMillis(), one.run().records());
    report.add(
        section,
        label + ": worker CPU per million change rows",
        Report.seconds(total),
        String.format(
            "%d ms of both workers' CPU (/proc); %.2fx that of 1 shard (goal at 4: <= 1.3x);"
                + " broker %.1f CPU-s",
            run.run().workerCpuMillis(),
            total / totalOne,
            Report.cpuSecondsPerMillion(run.run().brokerCpuMillis(), rows)));
    StringBuilder perShard = new StringBuilder();
    double worst = 0;
    for (int i = 0; i < run.count(); i++) {
      long sent = run.shards().get(i).rowsSent();
      double cpu = Report.cpuSecondsPerMillion(Math.round(run.shardCpuMillis(i)), sent);
      worst = Math.max(worst, cpu);
      perShard.append(
          String.format(
              "%s%d: %.1f (task thread %.1f, %,d rows)",
              i == 0 ? "" : "; ",
              i,
              cpu,
              Report.cpuSecondsPerMillion(run.taskCpuMillis().get(i), sent),
              sent));
    }
    report.add(
        section,
        label + ": CPU per million of a shard's own rows",
        Report.seconds(worst),
        "the highest; each shard's task thread plus its share, by rows, of the workers' other"
            + " threads: "
            + perShard);
    report.add(
        section,
        label + ": read amplification",
        String.format("%.2fx", (double) run.bytesRead() / one.bytesRead()),
        String.format(
            "bytes of files all shards read (BytesRead, %,d MiB) / those 1 shard reads (%,d"
                + " MiB): every shard reads every change row to send about 1/%d of them",
            run.bytesRead() >> 20, one.bytesRead() >> 20, run.count()));
    report.add(
        section,
        label + ": projected on " + label.replace("shard", "free core"),
        Report.rate((long) run.projectedRowsPerSecond(), 1000),
        "a projection, not measured: change rows / the CPU time of the busiest shard, each shard"
            + " on a core of its own and the broker elsewhere");
  }

  /** A text chart of measured and projected rows/s against the shard count. */
  private void chart(String section, List<Sharded> runs) {
    double max =
        runs.stream()
            .mapToDouble(run -> Math.max(run.rowsPerSecond(), run.projectedRowsPerSecond()))
            .max()
            .orElse(1);
    String chart = section.replace("Shards:", "Shards, chart of rows/s against N:");
    for (Sharded run : runs) {
      report.add(
          chart,
          "N=" + run.count() + " measured",
          Report.rate((long) run.rowsPerSecond(), 1000),
          bar(run.rowsPerSecond(), max, '#'));
      report.add(
          chart,
          "N=" + run.count() + " projected",
          Report.rate((long) run.projectedRowsPerSecond(), 1000),
          bar(run.projectedRowsPerSecond(), max, '='));
    }
  }

  private static String bar(double value, double max, char mark) {
    return String.valueOf(mark).repeat((int) Math.round(value / max * CHART_WIDTH));
  }
}
