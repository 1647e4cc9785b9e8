package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.SparkHarness;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table replaced in place (CREATE OR REPLACE TABLE / REPLACE TABLE ... AS SELECT, which give it a
 * new table id) reads as Spark's {@code table_changes} reads it: where Spark reads across the
 * replacing version (its old rows deleted, the new ones inserted), the feed yields the same rows
 * and streams on; where Spark fails, the feed fails naming the table, the version and the way out.
 */
class ReplacedTableDifferentialTest {

  private static final String CDF = "'delta.enableChangeDataFeed'='true'";

  @TempDir Path dir;

  private static final String MAPPED = CDF + ", 'delta.columnMapping.mode'='name'";

  /**
   * Replacements whose schema reads the old table's files: the same schema (with and without column
   * mapping), an added column, another partitioning.
   */
  static Stream<Arguments> compatibleReplacements() {
    return Stream.of(
        Arguments.of(
            CDF,
            "CREATE OR REPLACE TABLE %s USING delta TBLPROPERTIES ("
                + CDF
                + ")"
                + " AS SELECT CAST(7 AS BIGINT) AS id, 'z' AS v"),
        Arguments.of(
            CDF,
            "REPLACE TABLE %s USING delta TBLPROPERTIES ("
                + CDF
                + ")"
                + " AS SELECT CAST(7 AS BIGINT) AS id, 'z' AS v, 3 AS w"),
        Arguments.of(
            CDF,
            "REPLACE TABLE %s USING delta PARTITIONED BY (v) TBLPROPERTIES ("
                + CDF
                + ")"
                + " AS SELECT CAST(7 AS BIGINT) AS id, 'z' AS v"),
        Arguments.of(
            MAPPED,
            "CREATE OR REPLACE TABLE %s USING delta TBLPROPERTIES ("
                + MAPPED
                + ")"
                + " AS SELECT CAST(7 AS BIGINT) AS id, 'z' AS v"));
  }

  @ParameterizedTest
  @MethodSource("compatibleReplacements")
  void readsAcrossAReplacementAsSparkDoes(String properties, String replacement) {
    String path = tableWithTwoRows(properties);
    String idBefore = tableId(path);
    sql(replacement, "delta.`" + path + "`");
    long replaced = SparkOracle.latestVersion(path);
    sql("INSERT INTO delta.`%s` SELECT * FROM delta.`%s` LIMIT 1", path, path);
    assertThat(tableId(path))
        .as("DESCRIBE DETAIL's id after the replacement")
        .isNotEqualTo(idBefore);

    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> expected = SparkOracle.changesByVersion(path, 0, latest);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    Map<Long, List<String>> actual =
        FeedReads.byVersion(
            FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000),
            FeedReads.latestSchema(table));
    // Spark reads the whole range with the latest schema, even the versions before the
    // replacement (a column that became a partition column reads as null there); the feed reads
    // those with their own schema, as SparkDifferentialTest checks.
    for (long version = replaced; version <= latest; version++) {
      assertThat(actual.get(version)).as("version %d", version).isEqualTo(expected.get(version));
    }
    assertThat(actual.get(replaced)).anyMatch(row -> row.contains(" delete "));
  }

  /** Replacements Spark's table_changes cannot read across: a column dropped, renamed, retyped. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "REPLACE TABLE %s USING delta TBLPROPERTIES ("
            + CDF
            + ") AS SELECT CAST(7 AS BIGINT) AS id",
        "REPLACE TABLE %s USING delta TBLPROPERTIES ("
            + CDF
            + ")"
            + " AS SELECT CAST(7 AS BIGINT) AS id, 'z' AS w",
        "CREATE OR REPLACE TABLE %s USING delta TBLPROPERTIES ("
            + CDF
            + ")"
            + " AS SELECT 7 AS id, 'z' AS v"
      })
  void failsWhereSparkFails(String replacement) {
    String path = tableWithTwoRows(CDF);
    sql(replacement, "delta.`" + path + "`");
    long replaced = SparkOracle.latestVersion(path);

    assertThatThrownBy(() -> SparkOracle.changesByVersion(path, 0, replaced))
        .hasMessageContaining("DELTA_CHANGE_DATA_FEED_INCOMPATIBLE_DATA_SCHEMA");
    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    assertThatThrownBy(() -> FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000))
        .isInstanceOfSatisfying(
            DeltaFeedException.class,
            e -> assertThat(e.kind()).isEqualTo(DeltaFeedException.Kind.TABLE_REPLACED))
        .hasMessageContaining(path)
        .hasMessageContaining("replaced at version " + replaced)
        .hasMessageContaining("start.mode=snapshot")
        .hasMessageContaining("on.history.missing=resnapshot");
  }

  /** A replacement without the change data feed ends it, in Spark and here. */
  @Test
  void replacementWithoutChangeDataFeed() {
    String path = tableWithTwoRows(CDF);
    sql("REPLACE TABLE delta.`%s` USING delta AS SELECT CAST(7 AS BIGINT) AS id, 'z' AS v", path);
    long replaced = SparkOracle.latestVersion(path);

    assertThatThrownBy(() -> SparkOracle.changesByVersion(path, 0, replaced))
        .hasMessageContaining("DELTA_MISSING_CHANGE_DATA");
    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    assertThatThrownBy(() -> FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000))
        .isInstanceOfSatisfying(
            DeltaFeedException.class,
            e -> assertThat(e.kind()).isEqualTo(DeltaFeedException.Kind.CDF_DISABLED))
        .hasMessageContaining(path)
        .hasMessageContaining("version " + replaced);
  }

  private String tableWithTwoRows(String properties) {
    String path = dir.resolve("t" + System.nanoTime()).toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, v STRING) USING delta TBLPROPERTIES (%s)",
        path, properties);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path);
    return path;
  }

  private static String tableId(String path) {
    return SparkHarness.spark()
        .sql("DESCRIBE DETAIL delta.`" + path + "`")
        .collectAsList()
        .get(0)
        .getAs("id");
  }
}
