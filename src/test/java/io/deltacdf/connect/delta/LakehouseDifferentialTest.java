package io.deltacdf.connect.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ColumnPatterns;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.config.RowFilterParser;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.CanonicalRows;
import io.deltacdf.connect.testing.RandomWorkload;
import io.deltacdf.connect.testing.SparkHarness;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Column lists and a row filter on random tables (partitioned or not, column mapping, deletion
 * vectors, in-commit timestamps, checkpoints): every other column left out, and on partitioned
 * tables only rows of non-null partitions. The change data feed equals Spark's {@code
 * table_changes} with the same {@code SELECT} list and {@code WHERE}, row for row; derived changes
 * have its net effect. {@code -Dlakehouse.tables=40} runs more tables, {@code
 * -Dlakehouse.seed=<seed>} others.
 */
class LakehouseDifferentialTest {

  private static final long BASE_SEED = Long.getLong("lakehouse.seed", 20261205L);
  private static final int TABLES = Integer.getInteger("lakehouse.tables", 4);

  @TempDir static Path dir;

  static LongStream seeds() {
    return LongStream.range(BASE_SEED, BASE_SEED + TABLES);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void projectedAndFilteredFeedsMatchSpark(long seed) {
    RandomWorkload.Description workload = RandomWorkload.run(seed, dir);
    String path = workload.path();
    String table = Path.of(path).getFileName().toString();
    List<String> excluded = new ArrayList<>();
    List<String> sparkColumns = new ArrayList<>();
    String[] columns = SparkHarness.spark().read().format("delta").load(path).schema().fieldNames();
    for (int i = 0; i < columns.length; i++) {
      if (i % 2 == 1 && !columns[i].equals("id")) {
        excluded.add(table + ":" + Pattern.quote(columns[i]));
      } else {
        sparkColumns.add("`" + columns[i].replace("`", "``") + "`");
      }
    }
    boolean partitioned = workload.options().partitionType() != null;
    String where = partitioned ? "part IS NOT NULL" : "";
    ColumnSelection selection =
        new ColumnSelection(
            ColumnPatterns.of(table, List.of()), ColumnPatterns.of(table, excluded));
    RowFilter filter = RowFilterParser.parse(where);
    System.out.printf(
        "LakehouseDifferentialTest seed=%d kept=%s where='%s' %s%n",
        seed, sparkColumns, where, workload.options());

    Map<Long, List<String>> spark =
        SparkOracle.changesByVersion(path, 0, workload.latestVersion(), sparkColumns, where);
    for (ChangeSource source : List.of(ChangeSource.CDF, ChangeSource.DERIVED)) {
      try (DeltaTable deltaTable =
          DeltaTable.open(path, Map.of(), false)
              .withChangeSource(source, List.of())
              .withColumns(selection)
              .withRowFilter(filter)) {
        Map<Long, List<String>> ours =
            FeedReads.byVersion(
                FeedReads.readAll(deltaTable, ChangePosition.InVersion.start(0), 1000),
                FeedReads.schemaAt(deltaTable, workload.latestVersion()));
        for (long version = 0; version <= workload.latestVersion(); version++) {
          List<String> expected = spark.getOrDefault(version, List.of());
          List<String> actual = ours.getOrDefault(version, List.of());
          if (source == ChangeSource.CDF) {
            assertThat(actual)
                .as("version %d of workload:%n%s", version, workload)
                .isEqualTo(expected);
          } else {
            assertThat(CanonicalRows.net(actual))
                .as("net changes of version %d of workload:%n%s", version, workload)
                .isEqualTo(CanonicalRows.net(expected));
          }
        }
      }
    }
  }
}
