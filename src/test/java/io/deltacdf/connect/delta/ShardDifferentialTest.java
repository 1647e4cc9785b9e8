package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.KeyHash;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.delta.table.ShardRule;
import io.deltacdf.connect.delta.testing.ChangeDataFiles;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.delta.testing.FeedReads.ReadRow;
import io.deltacdf.connect.testing.RandomWorkload;
import io.deltacdf.connect.testing.SparkOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table's change stream split by key into shards (table.shards), on random tables (deletion
 * vectors, column mapping, partitions, checkpoints): the key is the id and a column that updates
 * and partition overwrites change, so some updates move a key from one shard to another. For 2 and
 * 3 shards, from version 0 and from a snapshot in the middle: the union of the shards' rows equals
 * Spark's {@code table_changes} as a multiset, and each shard's rows are exactly the whole feed's
 * rows of its keys, in the same order with the same positions (so the shards are disjoint and each
 * key keeps its order). The same on one table read by row tracking. {@code -Dshard.tables=40} runs
 * more tables, {@code -Dshard.seed=<seed>} others.
 */
class ShardDifferentialTest {

  private static final long BASE_SEED = Long.getLong("shard.seed", 20261220L);
  private static final int TABLES = Integer.getInteger("shard.tables", 3);

  @TempDir static Path dir;

  static LongStream seeds() {
    return LongStream.range(BASE_SEED, BASE_SEED + TABLES);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void shardsSplitTheFeedByKey(long seed) {
    RandomWorkload.Description workload = RandomWorkload.run(seed, dir);
    Map<Long, List<String>> spark =
        SparkOracle.changesByVersion(workload.path(), 0, workload.latestVersion());
    assertShardsSplitTheFeed(workload, workload.latestVersion(), spark, ChangeSource.CDF);
  }

  /**
   * The same on a table with row tracking, then an update of the id, whose cdc files are deleted,
   * read by row tracking: an update pair whose key changed has each image in the shard of its key.
   */
  @Test
  void rowTrackingShardsSplitTheFeedByKey() throws IOException {
    RandomWorkload.Description workload =
        RandomWorkload.run(
            BASE_SEED,
            Files.createDirectories(dir.resolve("row-tracking")),
            Map.of("delta.enableRowTracking", "true"));
    // Row tracking pairs an update of the id, so its images fall in the shards of two keys.
    sql("UPDATE delta.`%s` SET `id` = `id` + 1000000 WHERE `id` %% 3 = 0", workload.path());
    long latest = SparkOracle.latestVersion(workload.path());
    Map<Long, List<String>> spark = SparkOracle.changesByVersion(workload.path(), 0, latest);
    assertThat(ChangeDataFiles.deleteAll(Path.of(workload.path()))).isPositive();
    assertShardsSplitTheFeed(workload, latest, spark, ChangeSource.ROW_TRACKING);
  }

  private static void assertShardsSplitTheFeed(
      RandomWorkload.Description workload,
      long latest,
      Map<Long, List<String>> spark,
      ChangeSource source) {
    String path = workload.path();
    List<String> keys;
    try (DeltaTable plain = DeltaTable.open(path, Map.of(), false)) {
      List<String> columns =
          FeedReads.latestSchema(plain).fields().stream().map(f -> f.name()).toList();
      keys = List.of("id", columns.contains("part") ? "part" : columns.get(1));
    }
    long middle = latest / 2;
    System.out.printf(
        "ShardDifferentialTest %s keys=%s snapshot at %d %s%n",
        source, keys, middle, workload.options());
    for (ChangePosition start :
        List.of(ChangePosition.InVersion.start(0), ChangePosition.InSnapshot.start(middle))) {
      List<ReadRow> whole = read(path, source, keys, TableShard.WHOLE, start);
      for (int count : new int[] {2, 3}) {
        List<ReadRow> union = new ArrayList<>();
        for (int index = 0; index < count; index++) {
          TableShard shard = new TableShard(index, count);
          List<ReadRow> rows = read(path, source, keys, shard, start);
          assertThat(rows.stream().map(ShardDifferentialTest::placed).toList())
              .as("shard %s from %s of workload:%n%s", shard.label(), start, workload)
              .isEqualTo(
                  whole.stream()
                      .filter(row -> owns(shard, keys, row))
                      .map(ShardDifferentialTest::placed)
                      .toList());
          union.addAll(rows);
        }
        assertThat(canonical(union)).isEqualTo(canonical(whole));
        if (!start.inSnapshot()) {
          try (DeltaTable table = DeltaTable.open(path, Map.of(), false)) {
            Map<Long, List<String>> ours =
                FeedReads.byVersion(union, FeedReads.schemaAt(table, latest));
            for (long version = 0; version <= latest; version++) {
              assertThat(ours.getOrDefault(version, List.of()))
                  .as("version %d, %d shards, of workload:%n%s", version, count, workload)
                  .isEqualTo(spark.getOrDefault(version, List.of()));
            }
          }
        }
      }
    }
  }

  private static List<ReadRow> read(
      String path, ChangeSource source, List<String> keys, TableShard shard, ChangePosition start) {
    try (DeltaTable opened = DeltaTable.open(path, Map.of(), false)) {
      DeltaTable table =
          opened
              .withChangeSource(source, keys)
              .shardedBy(shard, keys, opened.latestSnapshot(), null);
      return FeedReads.readAll(table, start, 7);
    }
  }

  /** Whether {@code row} belongs to {@code shard}, by the hash of its key values. */
  private static boolean owns(TableShard shard, List<String> keys, ReadRow row) {
    int[] columns = new ShardRule(shard, keys, keys).columnsIn(row.schema());
    return shard.owns(KeyHash.of(row.row().values(), columns));
  }

  /** The row and the position after it. */
  private static String placed(ReadRow row) {
    return row.canonical() + " @ " + row.row().after();
  }

  private static List<String> canonical(List<ReadRow> rows) {
    return rows.stream().map(ReadRow::canonical).sorted().toList();
  }
}
