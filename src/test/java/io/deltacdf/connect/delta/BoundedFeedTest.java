package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.EndSpec;
import io.deltacdf.connect.change.SnapshotSlice;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded run's feed reads every row up to and including its last version and nothing after, and
 * end.timestamp resolves to the last version Delta's history (which Spark's endingTimestamp reads)
 * has at or before it.
 */
class BoundedFeedTest {

  @TempDir static Path dir;
  private static String path;
  private static DeltaTable table;

  /** Versions 1, 2, 4, 5 insert rows (2 and 5 two each); version 3 changes only a property. */
  @BeforeAll
  static void createTable() throws InterruptedException {
    path = dir.resolve("bounded").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    Thread.sleep(20); // distinct commit times
    sql("INSERT INTO delta.`%s` VALUES (1)", path);
    Thread.sleep(20);
    sql("INSERT INTO delta.`%s` VALUES (2), (3)", path);
    Thread.sleep(20);
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('purpose'='test')", path);
    Thread.sleep(20);
    sql("INSERT INTO delta.`%s` VALUES (4)", path);
    Thread.sleep(20);
    sql("INSERT INTO delta.`%s` VALUES (5), (6)", path);
    table = DeltaTable.open(path, Map.of(), false);
  }

  @Test
  void aVersionWithRowsIsReadWholeOneRowPerBatchThenTheFeedEnds() {
    try (DeltaChangeFeed feed =
        table.openFeed(ChangePosition.InVersion.start(0), SnapshotSlice.WHOLE, 2)) {
      List<Long> versions = new ArrayList<>();
      boolean lastBatchEndedAVersion = false;
      ChangeBatch batch;
      while ((batch = feed.next(1)) != null) {
        batch.rows().forEach(row -> versions.add(row.version()));
        lastBatchEndedAVersion = batch.endsVersion();
      }
      assertThat(versions).containsExactly(1L, 2L, 2L);
      assertThat(lastBatchEndedAVersion).isTrue();
      assertThat(feed.ended()).isTrue();
      assertThat(feed.position()).isEqualTo(ChangePosition.InVersion.start(3));
    }
  }

  @Test
  void anEndOnAVersionWithoutRowsStopsBeforeTheNextVersionWithRows() {
    try (DeltaChangeFeed feed =
        table.openFeed(ChangePosition.InVersion.start(0), SnapshotSlice.WHOLE, 3)) {
      assertThat(readAll(feed)).extracting(ChangeRow::version).containsExactly(1L, 2L, 2L);
      assertThat(feed.ended()).isTrue();
      assertThat(feed.position().version()).isEqualTo(4);
    }
  }

  @Test
  void aSnapshotAtTheEndIsReadWholeAndNothingAfter() {
    try (DeltaChangeFeed feed =
        table.openFeed(ChangePosition.InSnapshot.start(4), SnapshotSlice.WHOLE, 4)) {
      assertThat(readAll(feed)).hasSize(4).extracting(ChangeRow::version).containsOnly(4L);
      assertThat(feed.ended()).isTrue();
    }
  }

  @Test
  void anUnboundedFeedNeverEnds() {
    try (DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(0))) {
      assertThat(readAll(feed)).hasSize(6);
      assertThat(feed.ended()).isFalse();
    }
  }

  @Test
  void endTimestampsResolveLikeDeltasHistory() {
    for (long version = 0; version <= 5; version++) {
      long commitTime = commitTimestamp(version);
      for (long probe : new long[] {commitTime - 1, commitTime, commitTime + 1}) {
        if (version == 0 && probe < commitTime) {
          continue; // before the first commit: refused, see below
        }
        assertThat(table.resolveEnd(new EndSpec.AtTimestamp(probe), table.latestSnapshot()))
            .as("end at %s", Instant.ofEpochMilli(probe))
            .isEqualTo(sparkEndVersion(probe));
      }
    }
  }

  @Test
  void anEndTimestampBeforeTheFirstCommitOrNotPassedYetIsRefused() {
    long first = commitTimestamp(0);
    assertThatThrownBy(
            () -> table.resolveEnd(new EndSpec.AtTimestamp(first - 1), table.latestSnapshot()))
        .isInstanceOf(DeltaFeedException.class)
        .hasMessageContaining("at or before end.timestamp");
    long future = System.currentTimeMillis() + 3_600_000;
    assertThatThrownBy(
            () -> table.resolveEnd(new EndSpec.AtTimestamp(future), table.latestSnapshot()))
        .isInstanceOf(DeltaFeedException.class)
        .hasMessageContaining("has not passed yet")
        .hasMessageContaining("end.version");
  }

  @Test
  void anEndTimestampAfterTheLatestCommitThatHasPassedIsTheLatestVersion() {
    long afterLatest = commitTimestamp(5) + 1;
    assertThat(table.resolveEnd(new EndSpec.AtTimestamp(afterLatest), table.latestSnapshot()))
        .isEqualTo(5);
    assertThat(table.resolveEnd(new EndSpec.AtVersion(3), table.latestSnapshot())).isEqualTo(3);
  }

  private static List<ChangeRow> readAll(DeltaChangeFeed feed) {
    List<ChangeRow> rows = new ArrayList<>();
    ChangeBatch batch;
    while ((batch = feed.next(100)) != null) {
      rows.addAll(batch.rows());
    }
    return rows;
  }

  private static long commitTimestamp(long version) {
    return history().stream()
        .filter(r -> r.getLong(0) == version)
        .findFirst()
        .orElseThrow()
        .getLong(1);
  }

  /** The last version Delta's history (what Spark's endingTimestamp reads) has at or before. */
  private static long sparkEndVersion(long epochMillis) {
    return history().stream()
        .filter(r -> r.getLong(1) <= epochMillis)
        .mapToLong(r -> r.getLong(0))
        .max()
        .orElseThrow();
  }

  private static List<Row> history() {
    return spark()
        .sql(String.format("DESCRIBE HISTORY delta.`%s`", path))
        .selectExpr("version", "unix_millis(timestamp)")
        .collectAsList();
  }
}
