package io.deltacdf.connect.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import scala.Option;

/** Delta-spark's own answers about a table, in the canonical form of {@link CanonicalRows}. */
public final class SparkOracle {

  private static final String CHANGELOG_V2_ENABLED = "spark.databricks.delta.changelogV2.enabled";

  private SparkOracle() {}

  /**
   * Spark's batch change feed for versions {@code fromVersion..toVersion} (both inclusive), as
   * canonical rows sorted within each version. Versions without rows have no entry.
   */
  public static Map<Long, List<String>> changesByVersion(
      String tablePath, long fromVersion, long toVersion) {
    return changesByVersion(tablePath, fromVersion, toVersion, List.of());
  }

  /**
   * As {@link #changesByVersion(String, long, long)}, each row cut down to {@code columns} (SQL
   * expressions, as in a {@code SELECT} list over {@code table_changes}; empty for all columns).
   */
  public static Map<Long, List<String>> changesByVersion(
      String tablePath, long fromVersion, long toVersion, List<String> columns) {
    return changesByVersion(tablePath, fromVersion, toVersion, columns, "");
  }

  /**
   * As {@link #changesByVersion(String, long, long, List)}, only the rows {@code where} (a SQL
   * predicate, as in a {@code WHERE} over {@code table_changes}; blank for all) passes.
   */
  public static Map<Long, List<String>> changesByVersion(
      String tablePath, long fromVersion, long toVersion, List<String> columns, String where) {
    Dataset<Row> feed =
        SparkHarness.spark()
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", fromVersion)
            .option("endingVersion", toVersion)
            .load(tablePath);
    if (!where.isBlank()) {
      feed = feed.where(where);
    }
    if (!columns.isEmpty()) {
      List<String> selected = new ArrayList<>(columns);
      selected.addAll(List.of("_change_type", "_commit_version", "_commit_timestamp"));
      feed = feed.selectExpr(selected.toArray(String[]::new));
    }
    return byVersion(feed.collectAsList());
  }

  /**
   * Spark's read-time changelog (delta-spark's changelog V2, {@code CHANGES FROM VERSION}) for
   * versions {@code fromVersion..toVersion}, updates paired into images, as canonical rows sorted
   * within each version. It reads only the add and remove actions of a table with row tracking and
   * lets Spark pair rows by row id and row commit version: no change data files, no CDF needed.
   */
  public static Map<Long, List<String>> changelogByVersion(
      String tablePath, long fromVersion, long toVersion) {
    SparkSession spark = SparkHarness.spark();
    // Off by default in delta-spark 4.4; a runtime setting of the session.
    spark.conf().set(CHANGELOG_V2_ENABLED, "true");
    try {
      Dataset<Row> changes =
          spark
              .read()
              .option("startingVersion", fromVersion)
              .option("endingVersion", toVersion)
              .option("computeUpdates", "true")
              .changes("delta.`" + tablePath + "`")
              .drop("_metadata");
      return byVersion(changes.collectAsList());
    } finally {
      spark.conf().unset(CHANGELOG_V2_ENABLED);
    }
  }

  private static Map<Long, List<String>> byVersion(List<Row> rows) {
    Map<Long, List<String>> byVersion = new TreeMap<>();
    for (Row row : rows) {
      long version = row.getAs("_commit_version");
      byVersion.computeIfAbsent(version, v -> new ArrayList<>()).add(CanonicalRows.canonical(row));
    }
    byVersion.values().forEach(list -> list.sort(null));
    return byVersion;
  }

  /** The table's latest committed version, read fresh from its log. */
  public static long latestVersion(String tablePath) {
    return DeltaLog.forTable(SparkHarness.spark(), tablePath)
        .update(false, Option.empty(), Option.empty())
        .version();
  }
}
