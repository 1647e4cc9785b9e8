package io.deltacdf.connect.delta.log;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.FeedReads;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each start mode resolves to the position Spark's change feed would start at. */
class StartPositionsTest {

  @TempDir static Path dir;
  private static String path;
  private static DeltaTable table;

  @BeforeAll
  static void createTable() throws InterruptedException {
    path = dir.resolve("starts").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    for (int i = 1; i <= 3; i++) {
      Thread.sleep(20); // distinct commit times
      sql("INSERT INTO delta.`%s` VALUES (%d)", path, i);
    }
    table = DeltaTable.open(path, Map.of(), false);
  }

  @Test
  void snapshotLatestEarliestAndVersion() {
    assertThat(table.resolveStart(new StartSpec.Snapshot()))
        .isEqualTo(ChangePosition.InSnapshot.start(3));
    assertThat(table.resolveStart(new StartSpec.Latest()))
        .isEqualTo(ChangePosition.InVersion.start(4));
    assertThat(table.resolveStart(new StartSpec.Earliest()))
        .isEqualTo(ChangePosition.InVersion.start(0));
    assertThat(table.resolveStart(new StartSpec.AtVersion(2)))
        .isEqualTo(ChangePosition.InVersion.start(2));
  }

  @Test
  void snapshotStartEmitsTheTableThenNothingMoreUntilItChanges() {
    List<FeedReads.ReadRow> rows =
        FeedReads.readAll(table, table.resolveStart(new StartSpec.Snapshot()), 10);
    assertThat(rows).extracting(r -> r.row().version()).containsOnly(3L);
    assertThat(rows).hasSize(3);
  }

  @Test
  void timestampsResolveLikeSpark() {
    List<FeedReads.ReadRow> all = FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100);
    for (FeedReads.ReadRow row : all) {
      long commitTime = row.row().commitTimestampMs();
      for (long probe : new long[] {commitTime - 1, commitTime}) {
        ChangePosition resolved = table.resolveStart(new StartSpec.AtTimestamp(probe));
        assertThat(resolved.version())
            .as("start at %s", Instant.ofEpochMilli(probe))
            .isEqualTo(sparkStartVersion(probe));
      }
    }
  }

  private static long sparkStartVersion(long epochMillis) {
    List<Row> rows =
        spark()
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingTimestamp", new Timestamp(epochMillis).toInstant().toString())
            .load(path)
            .selectExpr("min(_commit_version)")
            .collectAsList();
    return rows.get(0).getLong(0);
  }
}
