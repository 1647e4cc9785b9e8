package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.delta.testing.VersionHeapCheck;
import io.deltacdf.connect.testing.ChildProcess;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * What pairing by row id costs on an UPDATE of 20 % of a table with the Change Data Feed and row
 * tracking (copy-on-write): change rows per second of the reading thread's CPU time from the cdc
 * files, from row tracking and from the key diff, printed as a {@code row-tracking-cost ...} line;
 * row tracking must give the cdc files' rows. A measurement, not a check of CI: it runs with {@code
 * -Drowtracking.cost=true}, on 200,000 rows or {@code -Drowtracking.cost.rows=N}. The UPDATE is
 * also read by row tracking in a JVM of its own with {@code -Xmx256m}: at 5,000,000 rows, the
 * issue's 1M-row update. {@code -Drowtracking.cost.dv=true} gives the table deletion vectors.
 */
@EnabledIfSystemProperty(named = "rowtracking.cost", matches = "true")
class RowTrackingCostTest {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int ROWS = Integer.getInteger("rowtracking.cost.rows", 200_000);

  /** Whether the table has deletion vectors, so that the UPDATE rewrites only the rows it sets. */
  private static final boolean DELETION_VECTORS = Boolean.getBoolean("rowtracking.cost.dv");

  private static final long UPDATE_VERSION = 2;

  /** Above this size the two sources' rows are compared by count only (the test heap is 1 GiB). */
  private static final int ROWS_COMPARED_ONE_BY_ONE = 1_000_000;

  @TempDir static Path dir;

  @Test
  void rowTrackingUpdateEqualsTheChangeDataFeedAndItsCostIsReported() throws IOException {
    String path = dir.resolve("updates").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING, amount BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableRowTracking'='true', 'delta.enableDeletionVectors'='%s')",
        path, DELETION_VECTORS);
    spark()
        .range(0, ROWS, 1, 4)
        .selectExpr("id", "concat('name-', id) AS name", "id AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 5 = 0", path);

    DeltaTable cdf = open(path, ChangeSource.CDF);
    DeltaTable rowTracking = open(path, ChangeSource.ROW_TRACKING);
    DeltaTable derived = open(path, ChangeSource.DERIVED);
    // Once each before timing, so that class loading and the JIT weigh on none of them.
    read(cdf);
    read(rowTracking);
    read(derived);
    double fromCdf = read(cdf);
    double fromRowTracking = read(rowTracking);
    double fromDerived = read(derived);
    System.out.printf(
        "row-tracking-cost rows=%d deletion-vectors=%s change-rows=%d (per second of the reading thread's CPU time)"
            + " cdf=%.0f rows/s row-tracking=%.0f rows/s (%.2fx cdf's CPU per row) derived=%.0f"
            + " rows/s (%.2fx)%n",
        ROWS,
        DELETION_VECTORS,
        2L * ((ROWS + 4) / 5),
        fromCdf,
        fromRowTracking,
        fromCdf / fromRowTracking,
        fromDerived,
        fromCdf / fromDerived);

    if (ROWS <= ROWS_COMPARED_ONE_BY_ONE) {
      assertThat(changes(rowTracking)).isEqualTo(changes(cdf));
    }

    // The memory target: at 5,000,000 rows the UPDATE changes 1,000,000 of them.
    List<String> output =
        ChildProcess.runToEnd(
            "VersionHeapCheck",
            ChildProcess.javaCommand(
                List.of("-Xmx256m"),
                VersionHeapCheck.class,
                path,
                Long.toString(UPDATE_VERSION),
                ChangeSource.ROW_TRACKING.name()),
            dir.resolve("heap-check.log"),
            Duration.ofMinutes(20));
    output.forEach(System.out::println);
    assertThat(output)
        .anyMatch(line -> line.contains("row-tracking-heap rows=" + 2L * ((ROWS + 4) / 5) + " "));
  }

  private static DeltaTable open(String path, ChangeSource source) {
    return DeltaTable.open(path, Map.of(), false).withChangeSource(source, List.of("id"));
  }

  /** Change rows of the UPDATE per CPU-second of this thread. */
  private static double read(DeltaTable table) {
    long start = THREADS.getCurrentThreadCpuTime();
    long rows = 0;
    try (DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(UPDATE_VERSION))) {
      ChangeBatch batch;
      while ((batch = feed.next(10_000)) != null
          && !batch.rows().isEmpty()
          && batch.rows().get(0).version() == UPDATE_VERSION) {
        rows += batch.rows().stream().filter(r -> r.version() == UPDATE_VERSION).count();
      }
    }
    assertThat(rows).isEqualTo(2L * ((ROWS + 4) / 5));
    return rows * 1e9 / (THREADS.getCurrentThreadCpuTime() - start);
  }

  private static List<String> changes(DeltaTable table) {
    return FeedReads.byVersion(
            FeedReads.readAll(table, ChangePosition.InVersion.start(UPDATE_VERSION), 10_000),
            FeedReads.schemaAt(table, UPDATE_VERSION))
        .get(UPDATE_VERSION);
  }
}
