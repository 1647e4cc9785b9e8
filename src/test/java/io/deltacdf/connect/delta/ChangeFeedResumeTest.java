package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.KeyHash;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.delta.table.ShardRule;
import io.deltacdf.connect.delta.testing.FeedReads;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resuming from the position after any row yields exactly the rest of an uninterrupted read: inside
 * the snapshot (across snapshot windows), inside large versions, across versions. The same for one
 * shard of the table, resumed inside a run of rows it passes over.
 */
class ChangeFeedResumeTest {

  /** A data column and a partition column: a shard reads both before it decodes a row. */
  private static final List<String> KEYS = List.of("id", "grp");

  private static final long SEED = Long.getLong("resume.seed", 7L);

  @TempDir static Path dir;
  private static String path;
  private static long snapshotVersion;

  @BeforeAll
  static void createTable() {
    path = dir.resolve("resume").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, grp STRING, amount DECIMAL(12,2)) USING delta"
            + " PARTITIONED BY (grp) TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='true')",
        path);
    // Several files per commit, so positions fall between and inside files.
    sql(
        "INSERT INTO delta.`%s` SELECT id, CAST(id %% 3 AS STRING), id * 1.5 FROM range(0, 60, 1, 4)",
        path);
    sql(
        "INSERT INTO delta.`%s` SELECT id, CAST(id %% 3 AS STRING), id FROM range(60, 90, 1, 3)",
        path);
    snapshotVersion = 2;
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 4 = 0", path);
    sql("DELETE FROM delta.`%s` WHERE id %% 5 = 0", path);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT id, CAST(id %% 3 AS STRING) AS grp FROM range(80, 100))"
            + " s ON t.id = s.id WHEN MATCHED THEN UPDATE SET amount = 0"
            + " WHEN NOT MATCHED THEN INSERT (id, grp, amount) VALUES (s.id, s.grp, 7)",
        path);
  }

  @Test
  void resumingInsideTheSnapshotAndVersionsYieldsTheRest() {
    DeltaTable table = DeltaTable.open(path, Map.of(), false).withSnapshotWindow(2);
    ChangePosition start = ChangePosition.InSnapshot.start(snapshotVersion);
    List<FeedReads.ReadRow> full = FeedReads.readAll(table, start, 7);

    assertThat(full).extracting(r -> r.row().version()).contains(snapshotVersion, 3L, 4L, 5L);
    assertThat(full.stream().filter(r -> r.row().version() == snapshotVersion))
        .hasSize(90)
        .allMatch(r -> r.row().type() == ChangeType.INSERT);
    assertThat(full.get(full.size() - 1).row().after())
        .isEqualTo(ChangePosition.InVersion.start(6));

    Random random = new Random(SEED);
    for (int attempt = 0; attempt < 25; attempt++) {
      int index = random.nextInt(full.size());
      ChangePosition resumeAt = full.get(index).row().after();
      int batchSize = 1 + random.nextInt(50);
      List<FeedReads.ReadRow> resumed = FeedReads.readAll(table, resumeAt, batchSize);
      assertThat(describe(resumed))
          .as("resume after row %d at %s (seed %d)", index, resumeAt, SEED)
          .isEqualTo(describe(full.subList(index + 1, full.size())));
    }
  }

  @Test
  void everyRowOfAVersionFeedMatchesAReadStartedAtItsVersion() {
    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    List<FeedReads.ReadRow> fromZero =
        FeedReads.readAll(table, ChangePosition.InVersion.start(0), 13);
    List<FeedReads.ReadRow> fromFour =
        FeedReads.readAll(table, ChangePosition.InVersion.start(4), 1000);
    assertThat(describe(fromFour))
        .isEqualTo(describe(fromZero.stream().filter(r -> r.row().version() >= 4).toList()));
  }

  /**
   * A shard's feed decides from the key columns alone which rows to decode; resumed after any row
   * of the whole table, its own or another shard's (inside a run of rows it passes over), it yields
   * exactly the rest of its keys' rows, at the positions the whole table's feed gives them.
   */
  @Test
  void aShardResumedAfterAnyRowYieldsTheRestOfItsKeysRows() {
    DeltaTable whole = DeltaTable.open(path, Map.of(), false).withSnapshotWindow(2);
    ChangePosition start = ChangePosition.InSnapshot.start(snapshotVersion);
    List<FeedReads.ReadRow> full = FeedReads.readAll(whole, start, 7);
    Random random = new Random(SEED);
    for (int index = 0; index < 2; index++) {
      TableShard shard = new TableShard(index, 2);
      DeltaTable table = whole.shardedBy(shard, KEYS, whole.latestSnapshot(), null);
      List<String> ofShard = describe(ofShard(full, shard));
      assertThat(ofShard).isNotEmpty().hasSizeLessThan(full.size());
      assertThat(describe(FeedReads.readAll(table, start, 5))).isEqualTo(ofShard);
      for (int attempt = 0; attempt < 12; attempt++) {
        int after = random.nextInt(full.size());
        ChangePosition resumeAt = full.get(after).row().after();
        assertThat(describe(FeedReads.readAll(table, resumeAt, 1 + random.nextInt(20))))
            .as("shard %s resumed after row %d at %s", shard.label(), after, resumeAt)
            .isEqualTo(describe(ofShard(full.subList(after + 1, full.size()), shard)));
      }
    }
  }

  /**
   * A shard taking over from another shard count ({@link HandOver}) sends its keys' rows from the
   * position the old partition stored on: the rows before it, which it passes over too, were sent.
   */
  @Test
  void aShardTakingOverSendsItsKeysRowsFromTheHandOverOn() {
    DeltaTable whole = DeltaTable.open(path, Map.of(), false);
    ChangePosition start = ChangePosition.InVersion.start(0);
    List<FeedReads.ReadRow> full = FeedReads.readAll(whole, start, 7);
    Random random = new Random(SEED);
    TableShard shard = new TableShard(1, 2);
    for (int attempt = 0; attempt < 8; attempt++) {
      int after = random.nextInt(full.size());
      ChangePosition.InVersion cut = (ChangePosition.InVersion) full.get(after).row().after();
      HandOver handOver = new HandOver(List.of(HandOver.Cut.whole(cut)));
      DeltaTable table = whole.shardedBy(shard, KEYS, whole.latestSnapshot(), handOver);
      assertThat(describe(FeedReads.readAll(table, start, 1 + random.nextInt(20))))
          .as("shard %s taking over at %s", shard.label(), cut)
          .isEqualTo(describe(ofShard(full.subList(after + 1, full.size()), shard)));
    }
  }

  private static List<FeedReads.ReadRow> ofShard(List<FeedReads.ReadRow> rows, TableShard shard) {
    return rows.stream()
        .filter(
            r -> {
              int[] columns = new ShardRule(shard, KEYS, KEYS).columnsIn(r.schema());
              return shard.owns(KeyHash.of(r.row().values(), columns));
            })
        .toList();
  }

  private static List<String> describe(List<FeedReads.ReadRow> rows) {
    return rows.stream().map(r -> r.canonical() + " -> " + r.row().after()).toList();
  }
}
