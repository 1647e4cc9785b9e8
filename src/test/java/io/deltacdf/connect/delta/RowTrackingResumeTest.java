package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.delta.testing.FeedReads;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row tracking reads only the changed rows of a rewritten file; a feed resumed after any of its
 * rows, the middle of a file included, gives exactly the rows that followed it.
 */
class RowTrackingResumeTest {

  private static final long UPDATE_VERSION = 2;

  @TempDir static Path dir;

  @Test
  void resumingAfterAnyRowGivesTheRowsAfterIt() {
    String path = dir.resolve("updates").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableRowTracking'='true',"
            + " 'delta.enableDeletionVectors'='false')",
        path);
    spark()
        .range(0, 600, 1, 2)
        .selectExpr("id", "concat('name-', id) AS name")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
    sql("UPDATE delta.`%s` SET name = concat(name, '!') WHERE id %% 7 = 3 OR id = 0", path);
    DeltaTable table =
        DeltaTable.open(path, Map.of(), false)
            .withChangeSource(ChangeSource.ROW_TRACKING, List.of("id"));

    List<FeedReads.ReadRow> all =
        FeedReads.readAll(table, ChangePosition.InVersion.start(UPDATE_VERSION), 1000);
    assertThat(all).hasSize(2 * 87);
    assertThat(all).allMatch(row -> row.row().version() == UPDATE_VERSION);
    for (int i = 0; i < all.size(); i++) {
      List<String> resumed =
          FeedReads.readAll(table, all.get(i).row().after(), 1000).stream()
              .map(FeedReads.ReadRow::canonical)
              .toList();
      List<String> expected =
          all.subList(i + 1, all.size()).stream().map(FeedReads.ReadRow::canonical).toList();
      assertThat(resumed)
          .as("resumed after row %d, %s", i, all.get(i).row().after())
          .isEqualTo(expected);
    }
  }
}
