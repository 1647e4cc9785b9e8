package io.deltacdf.connect.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.RandomWorkload;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our change feed equals Spark's {@code table_changes}, version by version, as a multiset of rows
 * with their commit timestamps, over random workloads. Replay a table with {@code
 * -Ddiff.seed=<seed> -Ddiff.tables=1}; run more with {@code -Ddiff.tables=200}.
 */
class SparkDifferentialTest {

  private static final long BASE_SEED = Long.getLong("diff.seed", 20261130L);
  private static final int TABLES = Integer.getInteger("diff.tables", 10);

  @TempDir static Path dir;

  static LongStream seeds() {
    return LongStream.range(BASE_SEED, BASE_SEED + TABLES);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomWorkloadMatchesSpark(long seed) {
    RandomWorkload.Description workload = RandomWorkload.run(seed, dir);
    // Half the tables plan every commit on the heap, half read each commit's files from its log
    // as they are needed, as a commit too large to hold is read.
    int planMemoryFiles = seed % 2 == 0 ? ChangeRules.HELD_FILE_ACTIONS : 0;
    System.out.println(
        "SparkDifferentialTest seed="
            + seed
            + " planMemoryFiles="
            + planMemoryFiles
            + " "
            + workload.options());

    Map<Long, List<String>> expected =
        SparkOracle.changesByVersion(workload.path(), 0, workload.latestVersion());
    DeltaTable table =
        DeltaTable.open(workload.path(), Map.of(), false).withPlanMemoryFiles(planMemoryFiles);
    Map<Long, List<String>> actual =
        FeedReads.byVersion(
            FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000),
            FeedReads.schemaAt(table, workload.latestVersion()));

    for (long version = 0; version <= workload.latestVersion(); version++) {
      assertThat(actual.getOrDefault(version, List.of()))
          .as("version %d of workload:%n%s", version, workload)
          .isEqualTo(expected.getOrDefault(version, List.of()));
    }
  }

  /**
   * Spark cannot read across a rename or drop under column mapping; we read each version with its
   * own schema, which must equal Spark's read of each range that stays within one schema.
   */
  @Test
  void renameAndDropUnderColumnMapping(@TempDir Path tableDir) {
    List<Long> schemaChanges = RandomWorkload.renameAndDrop(tableDir);
    String path = tableDir.toString();
    long latest = SparkOracle.latestVersion(path);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    List<FeedReads.ReadRow> rows =
        FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000);

    long from = 0;
    for (long boundary : append(schemaChanges, latest + 1)) {
      long to = boundary - 1;
      Map<Long, List<String>> expected = SparkOracle.changesByVersion(path, from, to);
      Map<Long, List<String>> actual = FeedReads.byVersion(rows, FeedReads.schemaAt(table, to));
      for (long version = from; version <= to; version++) {
        assertThat(actual.getOrDefault(version, List.of()))
            .as("version %d (Spark read versions %d..%d)", version, from, to)
            .isEqualTo(expected.getOrDefault(version, List.of()));
      }
      from = boundary;
    }
    assertThat(rows).isNotEmpty();
  }

  private static List<Long> append(List<Long> versions, long last) {
    List<Long> all = new java.util.ArrayList<>(versions);
    all.add(last);
    return all;
  }
}
