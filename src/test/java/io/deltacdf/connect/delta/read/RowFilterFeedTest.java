package io.deltacdf.connect.delta.read;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.config.RowFilterParser;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.ChangeDataFiles;
import io.deltacdf.connect.delta.testing.CountingFileSystem;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.CanonicalRows;
import io.deltacdf.connect.testing.SparkHarness;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A row filter on partition columns cuts the feed as the same {@code WHERE} cuts Spark's {@code
 * table_changes}: rows moved out of a partition show their pre-image only, rows moved in their
 * post-image only, also when row tracking pairs them (the cdc files deleted); derived changes have
 * the same net effect; the snapshot holds the rows Spark's filtered read of that version holds.
 * Files of other partitions are never opened.
 */
class RowFilterFeedTest {

  private static final List<String> FILTERS =
      List.of(
          "region = 'eu'",
          "region IN ('eu', 'uk') AND bucket >= 2 OR region IS NULL",
          "NOT (bucket < 1 OR bucket > 2) AND region <> 'us'",
          "day >= '2026-06-01' AND region IS NOT NULL");

  @TempDir static Path dir;
  private static String path;

  @BeforeAll
  static void writeTable() {
    path = dir.resolve("sales").toString();
    writeSales(path, "'delta.enableDeletionVectors' = 'true'");
  }

  /**
   * Inserts into partitions by region, bucket and day, then updates in place, updates that move
   * rows out of and into partitions, a delete and a MERGE that moves rows and inserts.
   */
  private static void writeSales(String path, String properties) {
    sql(
        "CREATE TABLE delta.`%s` (id INT, amount INT, region STRING, bucket INT, day DATE)"
            + " USING delta PARTITIONED BY (region, bucket, day)"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true', %s)",
        path, properties);
    sql(
        "INSERT INTO delta.`%s` SELECT CAST(id AS INT), CAST(id * 10 AS INT),"
            + " element_at(array('eu', 'us', 'uk', NULL), CAST(id %% 4 + 1 AS INT)),"
            + " CAST(id %% 3 AS INT), date_add(DATE'2026-05-30', CAST(id %% 5 AS INT))"
            + " FROM range(0, 60)",
        path);
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 4 = 0", path);
    sql("UPDATE delta.`%s` SET region = 'us' WHERE region = 'eu' AND id %% 8 = 0", path);
    sql("UPDATE delta.`%s` SET region = 'eu', bucket = 2 WHERE region = 'uk' AND id < 20", path);
    sql("DELETE FROM delta.`%s` WHERE id %% 7 = 3", path);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT CAST(id AS INT) AS id FROM range(50, 70)) s"
            + " ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.bucket = 0"
            + " WHEN NOT MATCHED THEN INSERT (id, amount, region, bucket, day)"
            + " VALUES (s.id, 1, 'eu', 2, DATE'2026-06-02')",
        path);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(ints = {0, 1, 2, 3})
  void changesMatchSparkWithTheSameWhere(int filterIndex) {
    String filter = FILTERS.get(filterIndex);
    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> expected =
        SparkOracle.changesByVersion(path, 0, latest, List.of(), filter);
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false).withRowFilter(RowFilterParser.parse(filter))) {
      Map<Long, List<String>> actual =
          FeedReads.byVersion(
              FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100),
              FeedReads.schemaAt(table, latest));
      assertThat(actual).as(filter).isEqualTo(expected);
    }
  }

  /**
   * Paired by row id (change.source=row-tracking, the cdc files deleted), with deletion vectors and
   * with copy-on-write files: every filter gives Spark's rows under the same {@code WHERE}. The
   * first pass pairs rows across every partition, so a row moved out of the filter's partitions
   * shows its {@code update_preimage} only and one moved in its {@code update_postimage} only, as
   * in Spark's feed, not a delete or an insert.
   */
  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {true, false})
  void rowTrackingMatchesSparkWithTheSameWhere(boolean deletionVectors) {
    String tracked = dir.resolve("sales-tracked-" + deletionVectors).toString();
    writeSales(
        tracked,
        "'delta.enableRowTracking' = 'true', 'delta.enableDeletionVectors' = '"
            + deletionVectors
            + "'");
    long latest = SparkOracle.latestVersion(tracked);
    Map<String, Map<Long, List<String>>> expected = new TreeMap<>();
    FILTERS.forEach(
        filter ->
            expected.put(
                filter, SparkOracle.changesByVersion(tracked, 0, latest, List.of(), filter)));
    assertThat(ChangeDataFiles.deleteAll(Path.of(tracked))).isPositive();
    for (String filter : FILTERS) {
      try (DeltaTable table =
          DeltaTable.open(tracked, Map.of(), false)
              .withChangeSource(ChangeSource.ROW_TRACKING, List.of("id"))
              .withRowFilter(RowFilterParser.parse(filter))) {
        Map<Long, List<String>> actual =
            FeedReads.byVersion(
                FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100),
                FeedReads.schemaAt(table, latest));
        assertThat(actual).as(filter).isEqualTo(expected.get(filter));
        if (filter.equals("region = 'eu'")) {
          // Version 3 moves rows from eu to us, version 4 from uk to eu.
          assertThat(actual.get(3L)).isNotEmpty().allMatch(row -> row.contains("update_preimage"));
          assertThat(actual.get(4L)).isNotEmpty().allMatch(row -> row.contains("update_postimage"));
        }
      }
    }
  }

  /**
   * Delta writes NaN and the infinities of a float or double partition as {@code NaN}, {@code
   * Infinity} and {@code -Infinity}; Spark orders NaN above +Infinity and equal to itself, and 0.0
   * equal to -0.0.
   */
  @Test
  void nonFiniteFloatingPartitionsCompareAsInSpark() {
    String floats = dir.resolve("readings").toString();
    sql(
        "CREATE TABLE delta.`%s` (id INT, score DOUBLE, ratio FLOAT) USING delta"
            + " PARTITIONED BY (score, ratio) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        floats);
    sql(
        "INSERT INTO delta.`%s` VALUES (1, CAST('NaN' AS DOUBLE), CAST('NaN' AS FLOAT)),"
            + " (2, CAST('Infinity' AS DOUBLE), CAST('Infinity' AS FLOAT)),"
            + " (3, CAST('-Infinity' AS DOUBLE), CAST('-Infinity' AS FLOAT)),"
            + " (4, 0.0D, CAST(-0.0 AS FLOAT)), (5, -0.0D, 0.1F), (6, 1.5D, 1.5F),"
            + " (7, NULL, NULL), (8, 1e308D, 16777216F)",
        floats);
    sql("UPDATE delta.`%s` SET id = id + 100 WHERE id %% 2 = 0", floats);
    long latest = SparkOracle.latestVersion(floats);
    for (String filter :
        List.of(
            "score = 'NaN'",
            "score > 1000000",
            "score >= 'Infinity'",
            "score < 0 OR score = 0",
            "NOT score = 'NaN' AND score <> '-inf'",
            "ratio IN ('NaN', 1.5, 0.1)",
            "ratio = 0",
            "ratio = 16777217",
            "ratio > 1.0E38 AND ratio < 'NaN'")) {
      Map<Long, List<String>> expected =
          SparkOracle.changesByVersion(floats, 0, latest, List.of(), filter);
      try (DeltaTable table =
          DeltaTable.open(floats, Map.of(), false).withRowFilter(RowFilterParser.parse(filter))) {
        Map<Long, List<String>> actual =
            FeedReads.byVersion(
                FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100),
                FeedReads.schemaAt(table, latest));
        assertThat(actual).as(filter).isEqualTo(expected);
      }
    }
  }

  @Test
  void aRowMovedOutShowsItsPreImageOnlyAndOneMovedInItsPostImageOnly() {
    long latest = SparkOracle.latestVersion(path);
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false)
            .withRowFilter(RowFilterParser.parse("region = 'eu'"))) {
      Map<Long, List<String>> rows =
          FeedReads.byVersion(
              FeedReads.readAll(table, ChangePosition.InVersion.start(3), 100),
              FeedReads.schemaAt(table, latest));
      // Version 3 moves rows from eu to us, version 4 from uk to eu.
      assertThat(rows.get(3L)).isNotEmpty().allMatch(row -> row.contains("update_preimage"));
      assertThat(rows.get(4L)).isNotEmpty().allMatch(row -> row.contains("update_postimage"));
    }
  }

  @Test
  void derivedChangesHaveSparksNetEffect() {
    String filter = FILTERS.get(1);
    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> spark =
        SparkOracle.changesByVersion(path, 0, latest, List.of(), filter);
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false)
            .withChangeSource(ChangeSource.DERIVED, List.of("id"))
            .withRowFilter(RowFilterParser.parse(filter))) {
      Map<Long, List<String>> derived =
          FeedReads.byVersion(
              FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100),
              FeedReads.schemaAt(table, latest));
      for (long version = 0; version <= latest; version++) {
        assertThat(CanonicalRows.net(derived.getOrDefault(version, List.of())))
            .as("version %d", version)
            .isEqualTo(CanonicalRows.net(spark.getOrDefault(version, List.of())));
      }
    }
  }

  @Test
  void theSnapshotHoldsTheRowsOfSparksFilteredRead() {
    String filter = FILTERS.get(3);
    long latest = SparkOracle.latestVersion(path);
    List<Row> sparkRows =
        SparkHarness.spark()
            .read()
            .format("delta")
            .option("versionAsOf", latest)
            .load(path)
            .where(filter)
            .collectAsList();
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false).withRowFilter(RowFilterParser.parse(filter))) {
      List<FeedReads.ReadRow> rows =
          FeedReads.readAll(table, ChangePosition.InSnapshot.start(latest), 100).stream()
              .filter(row -> row.row().version() == latest)
              .toList();
      Map<Object, Integer> ours = new TreeMap<>();
      rows.forEach(row -> ours.merge(row.row().values()[0], 1, Integer::sum));
      Map<Object, Integer> theirs = new TreeMap<>();
      sparkRows.forEach(row -> theirs.merge(row.getAs("id"), 1, Integer::sum));
      assertThat(ours).isNotEmpty().isEqualTo(theirs);
    }
  }

  @Test
  void filesOfOtherPartitionsAreNeverOpened() {
    String uri = CountingFileSystem.SCHEME + "://" + path;
    long latest = SparkOracle.latestVersion(path);
    Map<String, Long> all = opens(uri, RowFilter.ALL, latest);
    Map<String, Long> eu =
        opens(uri, RowFilterParser.parse("region = 'eu' AND bucket = 2"), latest);
    assertThat(eu.get("open calls"))
        .as("files opened with the filter %s, without %s", eu, all)
        .isLessThan(all.get("open calls") / 3);
  }

  private static Map<String, Long> opens(String uri, RowFilter filter, long latest) {
    try (DeltaTable table =
        DeltaTable.open(uri, CountingFileSystem.settings(), false).withRowFilter(filter)) {
      CountingFileSystem.reset();
      FeedReads.readAll(table, ChangePosition.InSnapshot.start(latest - 2), 100);
      return CountingFileSystem.counts();
    }
  }

  @Test
  void aFilterThatDoesNotFitTheTableSaysWhy() {
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false).withRowFilter(RowFilterParser.parse("amount > 3"))) {
      assertThatThrownBy(() -> table.requireRowFilterFits(table.latestSnapshot()))
          .isInstanceOf(DeltaFeedException.class)
          .hasMessageContaining("'amount', which is not a partition column")
          .hasMessageContaining("region, bucket, day");
    }
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false)
            .withRowFilter(RowFilterParser.parse("bucket = 'x'"))) {
      assertThatThrownBy(() -> table.requireRowFilterFits(table.latestSnapshot()))
          .hasMessageContaining("'bucket' of type int with 'x'")
          .hasMessageContaining("a number");
    }
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false)
            .withRowFilter(RowFilterParser.parse("day > 'May'"))) {
      assertThatThrownBy(() -> table.requireRowFilterFits(table.latestSnapshot()))
          .hasMessageContaining("not a valid date");
    }
  }
}
