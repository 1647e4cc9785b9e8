package io.deltacdf.connect.delta.feed;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slices of a snapshot read by several tasks: together they yield exactly the rows of the
 * one-task snapshot, each row in one slice, and each slice ends at the version after the snapshot
 * without reading the versions after it.
 */
class SnapshotSliceReadTest {

  @TempDir static Path dir;
  private static DeltaTable table;
  private static long snapshotVersion;

  @BeforeAll
  static void createTable() {
    String path = dir.resolve("sliced").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, part INT) USING delta PARTITIONED BY (part)"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='true')",
        path);
    sql(
        "INSERT INTO delta.`%s` SELECT /*+ REPARTITION(12) */ id, CAST(id %% 3 AS INT)"
            + " FROM range(0, 3000)",
        path);
    sql("DELETE FROM delta.`%s` WHERE id %% 7 = 0", path); // deletion vectors
    sql("INSERT INTO delta.`%s` VALUES (5000, 1)", path);
    table = DeltaTable.open(path, Map.of(), false);
    snapshotVersion = table.resolveStart(new StartSpec.Snapshot()).version();
    sql("INSERT INTO delta.`%s` VALUES (6000, 2)", path); // after the snapshot
  }

  @Test
  void slicesAreDisjointAndTogetherTheWholeSnapshot() {
    List<Long> whole = ids(readSnapshot(SnapshotSlice.WHOLE));
    assertThat(whole).hasSize(3000 - 429 + 1);
    for (int count : List.of(2, 3, 5)) {
      List<Long> union = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        List<ChangeRow> slice = readSnapshot(new SnapshotSlice(i, count));
        assertThat(slice).extracting(ChangeRow::version).containsOnly(snapshotVersion);
        union.addAll(ids(slice));
      }
      assertThat(union).as("%d slices", count).doesNotHaveDuplicates();
      assertThat(union).as("%d slices", count).containsExactlyInAnyOrderElementsOf(whole);
    }
  }

  @Test
  void eachSliceHoldsSomeOfTheFiles() {
    for (int i = 0; i < 3; i++) {
      assertThat(readSnapshot(new SnapshotSlice(i, 3))).as("slice %d/3", i).isNotEmpty();
    }
  }

  @Test
  void aSliceEndsAfterTheSnapshotAndResumesMidwayWithTheRestOfItsRows() {
    SnapshotSlice slice = new SnapshotSlice(1, 3);
    List<ChangeRow> all = readSnapshot(slice);
    ChangeRow middle = all.get(all.size() / 2);
    assertThat(middle.after()).isInstanceOf(ChangePosition.InSnapshot.class);
    assertThat(all.get(all.size() - 1).after())
        .isEqualTo(ChangePosition.InVersion.start(snapshotVersion + 1));
    List<ChangeRow> rest = read(middle.after(), slice);
    assertThat(ids(rest)).isEqualTo(ids(all.subList(all.size() / 2 + 1, all.size())));
    // A complete slice stays where it is: the versions after the snapshot are not its to read.
    assertThat(read(ChangePosition.InVersion.start(snapshotVersion + 1), slice)).isEmpty();
  }

  private static List<ChangeRow> readSnapshot(SnapshotSlice slice) {
    return read(ChangePosition.InSnapshot.start(snapshotVersion), slice);
  }

  private static List<ChangeRow> read(ChangePosition from, SnapshotSlice slice) {
    List<ChangeRow> rows = new ArrayList<>();
    try (DeltaChangeFeed feed = table.openFeed(from, slice)) {
      ChangeBatch batch;
      while ((batch = feed.next(100)) != null) {
        rows.addAll(batch.rows());
      }
      if (!slice.whole()) {
        assertThat(feed.position()).isEqualTo(ChangePosition.InVersion.start(snapshotVersion + 1));
      }
    }
    return slice.whole()
        ? rows.stream().filter(r -> r.version() == snapshotVersion).toList()
        : rows;
  }

  private static List<Long> ids(List<ChangeRow> rows) {
    return rows.stream().map(r -> (Long) r.values()[0]).toList();
  }
}
