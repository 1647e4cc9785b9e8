package io.deltacdf.connect.bench;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ColumnPatterns;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Column projection: the change feed of a 100-column table read whole and with 5 columns kept
 * (column.include.list), by our reader and by Spark's batch change feed reader with the same SELECT
 * list, each in a JVM of its own and measured warm (one untimed pass first).
 */
final class ProjectionRun {

  private static final int BATCH_ROWS = 10_000;

  /** The kept columns: the key, and one string, long and double column, and another string. */
  static final List<String> KEPT = List.of("id", "c1", "c2", "c3", "c6");

  private final BenchOptions options;
  private final Jvms jvms;
  private final Tables tables;
  private final Report report;

  ProjectionRun(BenchOptions options, Jvms jvms, Tables tables, Report report) {
    this.options = options;
    this.jvms = jvms;
    this.tables = tables;
    this.report = report;
  }

  void run() {
    Tables.Table table = tables.wide(options.wideRows());
    String section =
        String.format(
            "Column projection: %,d change rows of a 100-column table, all columns or %d kept",
            table.cdfRows(), KEPT.size());
    double oursAll = ours(table, "*");
    double oursKept = ours(table, String.join(",", KEPT));
    double sparkAll = spark(table, "*");
    double sparkKept = spark(table, String.join(",", KEPT));
    add(section, "our reader, all 100 columns", table, oursAll);
    add(section, "our reader, 5 columns", table, oursKept);
    report.add(
        section,
        "speed-up of the projection, our reader",
        Report.ratio(oursAll, oursKept),
        "time with all columns / time with 5");
    add(section, "Spark's change feed reader, all 100 columns", table, sparkAll);
    add(section, "Spark's change feed reader, the same 5 columns", table, sparkKept);
    report.add(
        section,
        "speed-up of the projection, Spark",
        Report.ratio(sparkAll, sparkKept),
        "time with all columns / time with 5");
    report.add(
        section,
        "speed ratio ours / Spark, all columns",
        Report.ratio(sparkAll, oursAll),
        "above 1 = ours faster");
    report.add(
        section,
        "speed ratio ours / Spark, 5 columns",
        Report.ratio(sparkKept, oursKept),
        "same rows, same columns; above 1 = ours faster");
  }

  private void add(String section, String what, Tables.Table table, double millis) {
    report.add(
        section,
        what,
        Report.rate(table.cdfRows(), (long) millis),
        String.format("%,d rows in %.0f ms", table.cdfRows(), millis));
  }

  /** Our reader's time for one warm pass over every version, in ms. */
  private double ours(Tables.Table table, String columns) {
    Map<String, String> result =
        jvms.runTest(
            options.workDir().resolve("logs/projection-ours.log"),
            options.workerHeap(),
            Read.class.getName(),
            table.path().toString(),
            columns);
    report.checkCount(
        "projection part, our reader (" + columns + ")",
        Long.parseLong(result.get("rows")),
        table.cdfRows());
    return Double.parseDouble(result.get("elapsed_ms"));
  }

  /** Spark's time for one warm pass over every version, in ms. */
  private double spark(Tables.Table table, String columns) {
    Map<String, String> result =
        jvms.runSpark(
            options.workDir().resolve("logs/projection-spark.log"),
            options.workerHeap(),
            60,
            "io.deltacdf.connect.bench.spark.BenchTables",
            "read-feed",
            table.path().toString(),
            columns);
    return Double.parseDouble(result.get("elapsed_ms"));
  }

  /**
   * Reads every change row of a table from version 0 with {@code columns} kept (comma-separated, or
   * {@code *} for all), one untimed pass, then one timed. Arguments: table path, columns.
   */
  public static final class Read {

    private Read() {}

    public static void main(String[] args) {
      ColumnSelection selection =
          args[1].equals("*")
              ? ColumnSelection.ALL
              : new ColumnSelection(
                  ColumnPatterns.of(
                      "wide", List.of(args[1].split(",")).stream().map(c -> "wide:" + c).toList()),
                  ColumnPatterns.of("wide", List.of()));
      readAll(args[0], selection);
      long start = System.nanoTime();
      long rows = readAll(args[0], selection);
      ChildJvm.result("rows", rows);
      ChildJvm.result("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
    }

    private static long readAll(String path, ColumnSelection selection) {
      long rows = 0;
      try (DeltaTable table =
              DeltaTable.open(Path.of(path).toString(), Map.of(), false).withColumns(selection);
          DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(0))) {
        ChangeBatch batch;
        while ((batch = feed.next(BATCH_ROWS)) != null) {
          rows += batch.rows().size();
        }
      }
      return rows;
    }
  }
}
