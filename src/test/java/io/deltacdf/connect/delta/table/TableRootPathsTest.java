package io.deltacdf.connect.delta.table;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Table roots whose path holds a space or a {@code %}: the log names files as URIs relative to the
 * root, and each must resolve to the file Spark wrote, neither decoded twice nor encoded twice.
 */
class TableRootPathsTest {

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"my lake", "100% lake", "50% off%20lake"})
  void aLocalTableWhoseRootHasASpaceOrPercentStreamsAsSparkReadsIt(String folder) {
    String path = dir.resolve(folder).resolve("orders").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, city STRING) USING delta PARTITIONED BY (city)"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'New York'), (2, '50%% off'), (3, 'plain')", path);
    sql("UPDATE delta.`%s` SET id = id + 10 WHERE city <> 'plain'", path);
    sql("DELETE FROM delta.`%s` WHERE id = 3", path);

    try (DeltaTable table = DeltaTable.open(path, Map.of(), false)) {
      List<FeedReads.ReadRow> rows =
          FeedReads.readAll(table, ChangePosition.InVersion.start(1), 100);
      assertThat(FeedReads.byVersion(rows, FeedReads.latestSchema(table)))
          .isEqualTo(SparkOracle.changesByVersion(path, 1, 3));
      assertThat(rows).hasSize(3 + 4 + 1);
    }
  }

  @Test
  void relativeLogPathsAreDecodedOnceAgainstALiteralRoot() {
    assertThat(resolve("file:/data/my lake/orders", "city=New%20York/part-0.parquet"))
        .isEqualTo("file:/data/my lake/orders/city=New York/part-0.parquet");
    // Spark escapes a % in a partition value as %25 in the folder name; the log encodes that.
    assertThat(resolve("file:/data/100% lake/orders", "city=50%2525/part-0.parquet"))
        .isEqualTo("file:/data/100% lake/orders/city=50%25/part-0.parquet");
    assertThat(resolve("file:/data/50% off%20lake/orders", "part-0.parquet"))
        .isEqualTo("file:/data/50% off%20lake/orders/part-0.parquet");
  }

  @Test
  void objectStoreRootsKeepTheirSchemeAndAuthority() {
    assertThat(resolve("s3a://bucket/my lake/orders", "part%201.parquet"))
        .isEqualTo("s3a://bucket/my lake/orders/part 1.parquet");
    assertThat(resolve("abfss://lake@acct.dfs.core.windows.net/50% off/orders", "p.parquet"))
        .isEqualTo("abfss://lake@acct.dfs.core.windows.net/50% off/orders/p.parquet");
  }

  @Test
  void aLogPathLeavingARootWithASpaceIsStillRefused() {
    FeedContext context =
        new FeedContext(null, "my lake/orders", "s3a://b/my lake/orders", false, null);
    assertThatThrownBy(() -> TablePaths.resolve(context, 4, "../other%20table/part-0.parquet"))
        .isInstanceOf(DeltaFeedException.class)
        .hasMessageContaining("outside the table's folder");
  }

  private static String resolve(String root, String logPath) {
    return TablePaths.resolve(new FeedContext(null, root, root, false, null), 1, logPath);
  }
}
