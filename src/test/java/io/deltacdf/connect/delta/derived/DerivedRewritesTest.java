package io.deltacdf.connect.delta.derived;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.CanonicalRows;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rewrites the random workloads of DerivedDifferentialTest do not make: a RESTORE (files an earlier
 * version removed come back, a deletion vector shrinks and un-hides rows) and a MERGE that adds a
 * column while it rewrites files. Each version's derived net changes equal those of Spark's change
 * feed, with and without key columns.
 */
class DerivedRewritesTest {

  @TempDir static Path dir;

  @Test
  void restoreWithDeletionVectorsMatchesSpark() {
    String path = table("restore-dv", true);
    // v2 hides rows of both files by deletion vectors; v3 hides more and adds updated rows.
    sql("DELETE FROM delta.`%s` WHERE id %% 4 = 0", path);
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 5 = 1", path);
    sql("INSERT INTO delta.`%s` SELECT id, 'late', id FROM range(100, 110)", path);
    // v5: the files of v1 return without deletion vectors, everything after v1 leaves.
    sql("RESTORE TABLE delta.`%s` TO VERSION AS OF 1", path);
    sql("RESTORE TABLE delta.`%s` TO VERSION AS OF 3", path);

    assertNetChangesMatchSpark(path);
  }

  @Test
  void restoreOfCopyOnWriteFilesMatchesSpark() {
    String path = table("restore-cow", false);
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 5 = 1", path);
    sql("DELETE FROM delta.`%s` WHERE id %% 4 = 0", path);
    // The removed files of v1 come back; the rewritten files of v2 and v3 leave.
    sql("RESTORE TABLE delta.`%s` TO VERSION AS OF 1", path);

    assertNetChangesMatchSpark(path);
  }

  @Test
  void mergeThatAddsAColumnWhileRewritingMatchesSpark() {
    String path = table("merge-evolution", false);
    sql("SET spark.databricks.delta.schema.autoMerge.enabled = true");
    try {
      // Updates ids 30..39 (rewriting the file that holds them) and inserts 40..44, all with
      // the new column; the rows left as they were read null in it on both sides.
      sql(
          "MERGE INTO delta.`%s` t USING (SELECT id, CAST(id %% 3 AS STRING) AS grp, id * 2 AS"
              + " amount, concat('note ', id) AS note FROM range(30, 45)) s ON t.id = s.id"
              + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
          path);
    } finally {
      sql("RESET spark.databricks.delta.schema.autoMerge.enabled");
    }
    sql("UPDATE delta.`%s` SET note = 'later' WHERE id %% 7 = 0", path);

    assertNetChangesMatchSpark(path);
  }

  /**
   * Variants are compared by meaning: rewriting a document with its keys in another order (another
   * key dictionary, other bytes) is no change, as in Spark's feed, where both images are equal.
   */
  @Test
  void variantsRewrittenWithTheSameMeaningAreNoChange() {
    String path = dir.resolve("variants").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, doc VARIANT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql(
        "INSERT INTO delta.`%s` SELECT id, parse_json(concat('{\"b\": ', id, ', \"a\": [1]}'))"
            + " FROM range(0, 20, 1, 2)",
        path);
    sql(
        "UPDATE delta.`%s` SET doc = IF(id %% 2 = 0,"
            + " parse_json(concat('{\"a\": [1], \"b\": ', id, '}')), parse_json('{\"c\": 0}'))"
            + " WHERE id < 6",
        path);

    assertNetChangesMatchSpark(path);
    long latest = SparkOracle.latestVersion(path);
    DeltaTable table =
        DeltaTable.open(path, Map.of(), false).withChangeSource(ChangeSource.DERIVED, List.of());
    List<String> rewritten =
        FeedReads.readAll(table, ChangePosition.InVersion.start(latest), 1000).stream()
            .map(FeedReads.ReadRow::canonical)
            .toList();
    assertThat(rewritten)
        .as("only the documents whose meaning changed: ids 1, 3 and 5, before and after")
        .hasSize(6)
        .allMatch(row -> row.matches(".*\\{id=[135], .*"));
  }

  /** A CDF-enabled table (Spark's change feed is the oracle) with 40 rows in two files at v1. */
  private static String table(String name, boolean deletionVectors) {
    String path = dir.resolve(name).toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, grp STRING, amount BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='%s')",
        path, deletionVectors);
    sql(
        "INSERT INTO delta.`%s` SELECT id, CAST(id %% 3 AS STRING), id FROM range(0, 40, 1, 2)",
        path);
    return path;
  }

  private static void assertNetChangesMatchSpark(String path) {
    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> spark = SparkOracle.changesByVersion(path, 0, latest);
    assertThat(spark).as("the last version changes rows").containsKey(latest);
    for (List<String> keys : List.of(List.<String>of(), List.of("id"))) {
      DeltaTable table =
          DeltaTable.open(path, Map.of(), false).withChangeSource(ChangeSource.DERIVED, keys);
      Map<Long, List<String>> derived =
          FeedReads.byVersion(
              FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000),
              FeedReads.schemaAt(table, latest));
      for (long version = 0; version <= latest; version++) {
        assertThat(CanonicalRows.net(derived.getOrDefault(version, List.of())))
            .as("net changes of version %d with key columns %s", version, keys)
            .isEqualTo(CanonicalRows.net(spark.getOrDefault(version, List.of())));
      }
    }
  }
}
