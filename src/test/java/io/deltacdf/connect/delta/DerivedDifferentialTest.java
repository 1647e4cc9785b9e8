package io.deltacdf.connect.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.CanonicalRows;
import io.deltacdf.connect.testing.RandomWorkload;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Changes derived from the data files (change.source=derived, cdc files ignored) have, version by
 * version, the same net effect as Spark's {@code table_changes} on random CDF-enabled workloads:
 * inserts and post-images count +1, deletes and pre-images -1, as a multiset of rows. Derived
 * changes leave out rows rewritten unchanged, which Spark reports as cancelling pairs, so only the
 * net effect can match. With key columns, every derived update pair shares its key. Replay a table
 * with {@code -Dderived.seed=<seed> -Dderived.tables=1}; run more with {@code
 * -Dderived.tables=200}.
 */
class DerivedDifferentialTest {

  private static final long BASE_SEED = Long.getLong("derived.seed", 20261202L);
  private static final int TABLES = Integer.getInteger("derived.tables", 8);

  @TempDir static Path dir;

  static LongStream seeds() {
    return LongStream.range(BASE_SEED, BASE_SEED + TABLES);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void derivedNetChangesMatchSpark(long seed) {
    RandomWorkload.Description workload = RandomWorkload.run(seed, dir);
    // Half the tables pair updates by key, half leave them as deletes and inserts.
    List<String> keys = seed % 2 == 0 ? List.of("id") : List.of();
    // Half of each half diffs on the heap, the other half spills every rewrite to temp files.
    int diffMemoryRows = seed % 4 >= 2 ? 16 : DiffSpill.DEFAULT_MAX_RECORDS_IN_MEMORY;
    // Every other group of four reads each commit's files from its log as they are needed.
    int planMemoryFiles = seed % 8 >= 4 ? 0 : ChangeRules.HELD_FILE_ACTIONS;
    System.out.println(
        "DerivedDifferentialTest seed="
            + seed
            + " keys="
            + keys
            + " diffMemoryRows="
            + diffMemoryRows
            + " planMemoryFiles="
            + planMemoryFiles
            + " "
            + workload.options());

    Map<Long, List<String>> spark =
        SparkOracle.changesByVersion(workload.path(), 0, workload.latestVersion());
    DeltaTable table =
        DeltaTable.open(workload.path(), Map.of(), false)
            .withChangeSource(ChangeSource.DERIVED, keys)
            .withDiffMemoryRows(diffMemoryRows)
            .withPlanMemoryFiles(planMemoryFiles);
    List<FeedReads.ReadRow> rows =
        FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000);
    Map<Long, List<String>> derived =
        FeedReads.byVersion(rows, FeedReads.schemaAt(table, workload.latestVersion()));

    for (long version = 0; version <= workload.latestVersion(); version++) {
      assertThat(CanonicalRows.net(derived.getOrDefault(version, List.of())))
          .as("net changes of version %d of workload:%n%s", version, workload)
          .isEqualTo(CanonicalRows.net(spark.getOrDefault(version, List.of())));
    }
    if (!keys.isEmpty()) {
      assertUpdatePairsShareKeys(rows);
    }
  }

  /** Per version, the keys of the pre-images are the keys of the post-images. */
  private static void assertUpdatePairsShareKeys(List<FeedReads.ReadRow> rows) {
    Map<Long, List<Object>> pre = new TreeMap<>();
    Map<Long, List<Object>> post = new TreeMap<>();
    for (FeedReads.ReadRow read : rows) {
      ChangeType type = read.row().type();
      if (type == ChangeType.UPDATE_PREIMAGE || type == ChangeType.UPDATE_POSTIMAGE) {
        Object id = read.row().values()[read.schema().indexOf("id")];
        (type == ChangeType.UPDATE_PREIMAGE ? pre : post)
            .computeIfAbsent(read.row().version(), v -> new ArrayList<>())
            .add(id);
      }
    }
    pre.values().forEach(ids -> ids.sort(null));
    post.values().forEach(ids -> ids.sort(null));
    assertThat(pre).isEqualTo(post);
  }
}
