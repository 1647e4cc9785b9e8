package io.deltacdf.connect.delta.derived;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.SparkOracle;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Derived changes on a table that never had a change data feed (copy-on-write, several files per
 * version): what a user sees after a snapshot, resuming inside a derived version, and {@code auto}
 * on a table that enables the change data feed part way.
 */
class DerivedChangesTest {

  @TempDir static Path dir;
  private static String plain;
  private static String enabledLater;
  private static long enabledAt;

  @BeforeAll
  static void createTables() {
    plain = dir.resolve("plain").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, grp STRING, amount DECIMAL(12,2)) USING delta"
            + " TBLPROPERTIES ('delta.enableDeletionVectors'='false')",
        plain);
    // v1: three files, so rewrites touch several files and positions fall between them.
    sql(
        "INSERT INTO delta.`%s` SELECT id, CAST(id %% 3 AS STRING), id FROM range(0, 60, 1, 3)",
        plain);
    // v2: 15 rows change; the other rows of the rewritten files stay as they were.
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 4 = 0", plain);
    // v3: an update that leaves every row identical.
    sql("UPDATE delta.`%s` SET amount = amount WHERE id < 30", plain);
    // v4: 12 deletes.
    sql("DELETE FROM delta.`%s` WHERE id %% 5 = 0", plain);
    // v5: updates of ids 50..59 still there, inserts of the others and of 60..69.
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT id, CAST(id %% 3 AS STRING) AS grp FROM range(50, 70))"
            + " s ON t.id = s.id WHEN MATCHED THEN UPDATE SET amount = 0"
            + " WHEN NOT MATCHED THEN INSERT (id, grp, amount) VALUES (s.id, s.grp, 7)",
        plain);

    enabledLater = dir.resolve("enabled-later").toString();
    sql("CREATE TABLE delta.`%s` (id BIGINT, note STRING) USING delta", enabledLater);
    sql("INSERT INTO delta.`%s` SELECT id, 'a' FROM range(0, 20, 1, 2)", enabledLater);
    sql("UPDATE delta.`%s` SET note = 'b' WHERE id < 5", enabledLater);
    sql(
        "ALTER TABLE delta.`%s` SET TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        enabledLater);
    enabledAt = SparkOracle.latestVersion(enabledLater);
    sql("UPDATE delta.`%s` SET note = 'c' WHERE id >= 15", enabledLater);
    sql("DELETE FROM delta.`%s` WHERE id = 3", enabledLater);
    sql("INSERT INTO delta.`%s` VALUES (100, 'new')", enabledLater);
  }

  private static DeltaTable derived(String path, List<String> keys) {
    return DeltaTable.open(path, Map.of(), false).withChangeSource(ChangeSource.DERIVED, keys);
  }

  @Test
  void cdfModeRefusesATableWithoutItAndNamesAuto() {
    DeltaTable table = DeltaTable.open(plain, Map.of(), false);
    assertThatThrownBy(() -> table.resolveStart(new StartSpec.Snapshot()))
        .isInstanceOf(DeltaFeedException.class)
        .hasMessageContaining("change.source=auto");
    assertThatThrownBy(() -> FeedReads.readAll(table, ChangePosition.InVersion.start(1), 100))
        .isInstanceOf(DeltaFeedException.class)
        .hasMessageContaining("change.source=derived or auto");
  }

  @Test
  void snapshotThenDerivedChangesShowWhatChanged() {
    DeltaTable table = derived(plain, List.of("id"));
    ChangePosition start = table.resolveStart(new StartSpec.Snapshot());
    assertThat(start).isEqualTo(ChangePosition.InSnapshot.start(5));
    // Read from the snapshot of v1 instead, to see every later version's changes.
    List<FeedReads.ReadRow> rows = FeedReads.readAll(table, ChangePosition.InSnapshot.start(1), 7);

    assertThat(summary(rows, 1)).isEqualTo(Map.of("insert", 60));
    assertThat(summary(rows, 2)).isEqualTo(Map.of("update_preimage", 15, "update_postimage", 15));
    assertThat(rows)
        .filteredOn(r -> r.row().version() == 2)
        .allMatch(r -> ((Long) value(r, "id")) % 4 == 0)
        .filteredOn(r -> r.row().type() == ChangeType.UPDATE_POSTIMAGE)
        .allMatch(
            r ->
                value(r, "amount")
                    .equals(BigDecimal.valueOf((Long) value(r, "id") + 1).setScale(2)));
    assertThat(summary(rows, 3)).as("an update leaving rows identical").isEmpty();
    assertThat(summary(rows, 4)).isEqualTo(Map.of("delete", 12));
    // Ids 50..59 exist except the deleted 50 and 55: 8 updates; 50, 55 and 60..69 are inserts.
    assertThat(summary(rows, 5))
        .isEqualTo(Map.of("update_preimage", 8, "update_postimage", 8, "insert", 12));
  }

  @Test
  void withoutKeyColumnsAnUpdateIsADeleteAndAnInsert() {
    List<FeedReads.ReadRow> rows =
        FeedReads.readAll(derived(plain, List.of()), ChangePosition.InVersion.start(2), 1000);
    assertThat(summary(rows, 2)).isEqualTo(Map.of("delete", 15, "insert", 15));
  }

  @Test
  void resumingAfterAnyRowOfDerivedVersionsYieldsTheRest() {
    DeltaTable table = derived(plain, List.of("id"));
    ChangePosition start = ChangePosition.InVersion.start(2);
    List<FeedReads.ReadRow> full = FeedReads.readAll(table, start, 1000);
    for (int index = 0; index < full.size(); index += 3) {
      ChangePosition resumeAt = full.get(index).row().after();
      List<FeedReads.ReadRow> resumed = FeedReads.readAll(table, resumeAt, 1 + index % 11);
      assertThat(describe(resumed))
          .as("resume after row %d at %s", index, resumeAt)
          .isEqualTo(describe(full.subList(index + 1, full.size())));
    }
  }

  @Test
  void autoDerivesBeforeTheChangeDataFeedAndReadsItAfter() {
    DeltaTable auto =
        DeltaTable.open(enabledLater, Map.of(), false)
            .withChangeSource(ChangeSource.AUTO, List.of("id"));
    assertThat(auto.resolveStart(new StartSpec.Earliest()))
        .isEqualTo(ChangePosition.InVersion.start(0));
    List<FeedReads.ReadRow> rows = FeedReads.readAll(auto, ChangePosition.InVersion.start(0), 1000);
    long latest = SparkOracle.latestVersion(enabledLater);

    List<FeedReads.ReadRow> derivedRows =
        FeedReads.readAll(
            derived(enabledLater, List.of("id")), ChangePosition.InVersion.start(0), 1000);
    assertThat(describe(rows.stream().filter(r -> r.row().version() < enabledAt).toList()))
        .isEqualTo(
            describe(derivedRows.stream().filter(r -> r.row().version() < enabledAt).toList()));
    assertThat(summary(rows, 2)).isEqualTo(Map.of("update_preimage", 5, "update_postimage", 5));

    Map<Long, List<String>> fromEnabled =
        FeedReads.byVersion(
            rows.stream().filter(r -> r.row().version() >= enabledAt).toList(),
            FeedReads.schemaAt(auto, latest));
    assertThat(fromEnabled)
        .isEqualTo(SparkOracle.changesByVersion(enabledLater, enabledAt, latest));
  }

  private static Object value(FeedReads.ReadRow read, String column) {
    return read.row().values()[read.schema().indexOf(column)];
  }

  /** Rows per change type of {@code version}. */
  private static Map<String, Integer> summary(List<FeedReads.ReadRow> rows, long version) {
    Map<String, Integer> counts = new TreeMap<>();
    rows.stream()
        .filter(r -> r.row().version() == version)
        .forEach(r -> counts.merge(r.row().type().label(), 1, Integer::sum));
    return counts;
  }

  private static List<String> describe(List<FeedReads.ReadRow> rows) {
    return rows.stream().map(r -> r.canonical() + " -> " + r.row().after()).toList();
  }
}
