package io.deltacdf.connect.delta.derived;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.delta.testing.VersionHeapCheck;
import io.deltacdf.connect.testing.ChildProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What derived changes cost on an UPDATE-heavy table (copy-on-write, 20 % of the rows updated in
 * one version): derived rows/s against the Change Data Feed's on the same version and against the
 * reader's ceiling (plain inserts), printed as {@code derived-cost ...} lines; and the rewrite
 * diffed in a JVM of its own with {@code -Xmx256m}. CI uses 200,000 rows; the size is
 * {@code -Dderived.cost.rows=5000000}.
 */
class DerivedCostTest {

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();
  private static final int ROWS = Integer.getInteger("derived.cost.rows", 200_000);

  /**
   * Up to this size both feeds' rows are compared one by one, holding them all in the test's heap;
   * larger runs (5,000,000 rows ran out of a 1 GiB heap there) compare the counts only.
   */
  private static final int ROWS_COMPARED_ONE_BY_ONE = 1_000_000;

  @TempDir static Path dir;
  private static String path;
  private static final long INSERT_VERSION = 1;
  private static final long UPDATE_VERSION = 2;

  @BeforeAll
  static void createTable() {
    path = dir.resolve("updates").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING, amount BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='false')",
        path);
    spark()
        .range(0, ROWS, 1, 4)
        .selectExpr("id", "concat('name-', id) AS name", "id AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 5 = 0", path);
  }

  @Test
  void derivedUpdateEqualsTheChangeDataFeedAndItsCostIsReported() {
    DeltaTable cdf =
        DeltaTable.open(path, Map.of(), false).withChangeSource(ChangeSource.CDF, List.of("id"));
    DeltaTable derived =
        DeltaTable.open(path, Map.of(), false)
            .withChangeSource(ChangeSource.DERIVED, List.of("id"));

    Timed ceiling = Timed.read(cdf, INSERT_VERSION);
    Timed fromCdf = Timed.read(cdf, UPDATE_VERSION);
    Timed fromDerived = Timed.read(derived, UPDATE_VERSION);
    System.out.printf(
        "derived-cost rows=%d (per second of the reading thread's CPU time) insert-ceiling=%.0f"
            + " rows/s cdf=%.0f rows/s derived=%.0f rows/s (derived/cdf %.2f)%n",
        ROWS,
        ceiling.rowsPerSecond(),
        fromCdf.rowsPerSecond(),
        fromDerived.rowsPerSecond(),
        fromDerived.rowsPerSecond() / fromCdf.rowsPerSecond());

    // Every updated row changed, so the derived feed holds exactly the real feed's rows.
    assertThat(fromDerived.rows()).isEqualTo(2L * ((ROWS + 4) / 5));
    if (ROWS > ROWS_COMPARED_ONE_BY_ONE) {
      return;
    }
    List<String> real =
        FeedReads.byVersion(
                FeedReads.readAll(cdf, ChangePosition.InVersion.start(UPDATE_VERSION), 10_000),
                FeedReads.schemaAt(cdf, UPDATE_VERSION))
            .get(UPDATE_VERSION);
    List<String> ours =
        FeedReads.byVersion(
                FeedReads.readAll(derived, ChangePosition.InVersion.start(UPDATE_VERSION), 10_000),
                FeedReads.schemaAt(derived, UPDATE_VERSION))
            .get(UPDATE_VERSION);
    assertThat(ours).isEqualTo(real);
  }

  @Test
  void theRewriteIsDiffedInA256MiBHeap() throws IOException {
    List<String> output =
        ChildProcess.runToEnd(
            "HeapCheck",
            ChildProcess.javaCommand(
                List.of("-Xmx256m"),
                VersionHeapCheck.class,
                path,
                Long.toString(UPDATE_VERSION),
                ChangeSource.DERIVED.name()),
            dir.resolve("heap-check.log"),
            Duration.ofMinutes(20));
    output.forEach(System.out::println);
    String rows = "derived-heap rows=" + 2L * ((ROWS + 4) / 5) + " ";
    assertThat(output).anyMatch(line -> line.contains(rows));
  }

  /**
   * Rows of one version and the CPU time of the thread that read them (reading is single-threaded;
   * CPU time, unlike wall time, does not depend on what else the machine runs).
   */
  private record Timed(long rows, long cpuNanos) {
    double rowsPerSecond() {
      return rows * 1e9 / cpuNanos;
    }

    static Timed read(DeltaTable table, long version) {
      long start = THREADS.getCurrentThreadCpuTime();
      long rows = 0;
      try (DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(version))) {
        ChangeBatch batch;
        while ((batch = feed.next(10_000)) != null && !batch.rows().isEmpty()) {
          rows += batch.rows().stream().filter(r -> r.version() == version).count();
          if (batch.rows().get(batch.rows().size() - 1).version() != version) {
            break;
          }
        }
      }
      return new Timed(rows, THREADS.getCurrentThreadCpuTime() - start);
    }
  }
}
