package io.deltacdf.connect.delta.table;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ColumnPatterns;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.ChangeDataFiles;
import io.deltacdf.connect.delta.testing.CountingFileSystem;
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
 * Column lists cut the feed as a {@code SELECT} list cuts Spark's {@code table_changes}: same rows,
 * same values, whole columns, nested fields and partition columns left out, also across a column
 * added later and under column mapping with deletion vectors. The columns left out are not read.
 */
class ColumnSelectionFeedTest {

  private static final String ADDRESS_CITY =
      "IF(address IS NULL, NULL, named_struct('city', address.city)) AS address";

  /** The version of {@link #writePeople}'s update of {@code ssn} only, left out by both lists. */
  private static final long SSN_UPDATE = 3;

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exclude", "include"})
  void selectedColumnsMatchSparksSelectList(String list) {
    String path = dir.resolve("people").toString();
    writePeople(path);
    ColumnSelection selection;
    List<String> sparkColumns;
    if (list.equals("exclude")) {
      // ssn, the ssn_2 column added later, and a nested field; the partition column stays.
      selection = selection("people", List.of(), List.of("people:ssn.*", "people:address\\.zip"));
      sparkColumns = List.of("id", "name", ADDRESS_CITY, "notes", "part");
    } else {
      // a nested field without its sibling; the partition column and name left out.
      selection =
          selection(
              "people", List.of("people:id", "people:address.city", "people:notes"), List.of());
      sparkColumns = List.of("id", ADDRESS_CITY, "notes");
    }
    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> expected = SparkOracle.changesByVersion(path, 0, latest, sparkColumns);
    try (DeltaTable table = DeltaTable.open(path, Map.of(), false).withColumns(selection)) {
      FieldType.Struct schema = FeedReads.schemaAt(table, latest);
      assertThat(schema.fields().stream().map(FieldType.Field::name))
          .containsExactlyElementsOf(
              list.equals("exclude")
                  ? List.of("id", "name", "address", "notes", "part")
                  : List.of("id", "address", "notes"));
      Map<Long, List<String>> actual =
          FeedReads.byVersion(
              FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100), schema);
      assertThat(expected.values().stream().flatMap(List::stream))
          .as("Spark's feed holds updates of left-out columns only")
          .anyMatch(row -> row.contains("update_preimage"));
      assertThat(actual).isEqualTo(expected);
    }
  }

  /**
   * Paired by row id (change.source=row-tracking, the cdc files deleted), Spark's rows for the same
   * {@code SELECT} list: with an exclude list and deletion vectors, and with an include list and
   * copy-on-write files (rewritten files carry the materialized row tracking columns, read beside
   * the kept ones). An update of left-out columns only still yields its images, equal in the kept
   * columns, and a MERGE that moves rows between partitions yields update pairs.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exclude", "include"})
  void rowTrackingYieldsSparksRowsForTheSelectList(String list) {
    String path = dir.resolve("people").toString();
    boolean deletionVectors = list.equals("exclude");
    writePeople(path, deletionVectors, ", 'delta.enableRowTracking' = 'true'");
    ColumnSelection selection =
        list.equals("exclude")
            ? selection("people", List.of(), List.of("people:ssn.*", "people:address\\.zip"))
            : selection(
                "people", List.of("people:id", "people:address.city", "people:notes"), List.of());
    List<String> sparkColumns =
        list.equals("exclude")
            ? List.of("id", "name", ADDRESS_CITY, "notes", "part")
            : List.of("id", ADDRESS_CITY, "notes");
    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> expected = SparkOracle.changesByVersion(path, 0, latest, sparkColumns);
    assertThat(ChangeDataFiles.deleteAll(Path.of(path))).isPositive();
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false)
            .withChangeSource(ChangeSource.ROW_TRACKING, List.of("id"))
            .withColumns(selection)) {
      Map<Long, List<String>> actual =
          FeedReads.byVersion(
              FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100),
              FeedReads.schemaAt(table, latest));
      assertThat(actual).isEqualTo(expected);
      assertImagesEqualInKeptColumns(actual.get(SSN_UPDATE));
    }
  }

  /**
   * The rows of an update that changed left-out columns only: update images, each pre-image equal
   * to a post-image in the columns kept.
   */
  private static void assertImagesEqualInKeptColumns(List<String> rows) {
    assertThat(rows).isNotEmpty();
    List<String> before =
        rows.stream()
            .filter(row -> row.contains(" update_preimage "))
            .map(row -> row.replace(" update_preimage ", " "))
            .sorted()
            .toList();
    List<String> after =
        rows.stream()
            .filter(row -> row.contains(" update_postimage "))
            .map(row -> row.replace(" update_postimage ", " "))
            .sorted()
            .toList();
    assertThat(before).hasSize(rows.size() / 2).isEqualTo(after);
  }

  @Test
  void columnsLeftOutAreNotRead() {
    Path path = dir.resolve("wide");
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, payload STRING, small INT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        path);
    // Random text does not compress: the payload column is most of each file.
    sql(
        "INSERT INTO delta.`%s` SELECT id, concat_ws('', transform(sequence(1, 32), i -> uuid())),"
            + " CAST(id %% 100 AS INT) FROM range(0, 5000)",
        path);
    String uri = CountingFileSystem.SCHEME + "://" + path.toAbsolutePath();
    long all = bytesReadByFeed(uri, ColumnSelection.ALL);
    long projected =
        bytesReadByFeed(uri, selection("wide", List.of("wide:id", "wide:small"), List.of()));
    assertThat(projected)
        .as("bytes read without the payload column (%d) against with it (%d)", projected, all)
        .isLessThan(all / 10);
  }

  private static long bytesReadByFeed(String uri, ColumnSelection selection) {
    try (DeltaTable table =
        DeltaTable.open(uri, CountingFileSystem.settings(), false).withColumns(selection)) {
      CountingFileSystem.reset();
      assertThat(FeedReads.readAll(table, ChangePosition.InVersion.start(0), 1000)).hasSize(5000);
      return CountingFileSystem.bytesRead();
    }
  }

  private static ColumnSelection selection(
      String table, List<String> include, List<String> exclude) {
    return new ColumnSelection(
        ColumnPatterns.of(table, include), ColumnPatterns.of(table, exclude));
  }

  /** Inserts, updates of kept and of left-out columns, a delete, a merge and an added column. */
  private static void writePeople(String path) {
    writePeople(path, true, "");
  }

  /**
   * As {@link #writePeople(String)}, with or without deletion vectors and with more table
   * properties ({@code , 'k' = 'v'}).
   */
  private static void writePeople(String path, boolean deletionVectors, String moreProperties) {
    sql(
        "CREATE TABLE delta.`%s` (id INT, name STRING, address STRUCT<city: STRING, zip: STRING>,"
            + " ssn STRING, notes STRING, part STRING) USING delta PARTITIONED BY (part)"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true',"
            + " 'delta.enableDeletionVectors' = '%s', 'delta.columnMapping.mode' = 'name'%s)",
        path, deletionVectors, moreProperties);
    sql(
        "INSERT INTO delta.`%s` SELECT CAST(id AS INT), concat('n', id),"
            + " IF(id %% 5 = 0, NULL, named_struct('city', concat('c', id %% 3), 'zip',"
            + " concat('z', id))), concat('ssn-', id), IF(id %% 2 = 0, NULL, 'note'),"
            + " IF(id %% 2 = 0, 'eu', 'us') FROM range(0, 40)",
        path);
    sql("UPDATE delta.`%s` SET name = concat(name, '!') WHERE id %% 4 = 0", path);
    sql("UPDATE delta.`%s` SET ssn = concat(ssn, '?') WHERE id %% 3 = 0", path);
    sql("UPDATE delta.`%s` SET address.zip = 'z0' WHERE id %% 7 = 0", path);
    sql("DELETE FROM delta.`%s` WHERE id %% 6 = 1", path);
    sql("ALTER TABLE delta.`%s` ADD COLUMN (ssn_2 STRING)", path);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT CAST(id AS INT) AS id FROM range(30, 50)) s"
            + " ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.ssn_2 = 'x', t.part = 'eu'"
            + " WHEN NOT MATCHED THEN INSERT (id, name, ssn, ssn_2, part)"
            + " VALUES (s.id, 'new', 's', 's2', 'us')",
        path);
  }
}
