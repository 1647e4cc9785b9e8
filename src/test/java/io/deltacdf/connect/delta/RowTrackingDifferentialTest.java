package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.VersionSourceCounts;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.testing.ChangeDataFiles;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.testing.RandomWorkload;
import io.deltacdf.connect.testing.SparkOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Changes paired by row id (change.source=row-tracking) are Spark's change feed row for row: random
 * workloads on tables with both the Change Data Feed and row tracking, then an update that sets the
 * key to a new value and one that sets a column to itself; Spark's {@code table_changes} is read,
 * every file a {@code cdc} action names is deleted, and each version's rows from row tracking must
 * equal Spark's as a multiset, update images included. Spark's read-time changelog (delta-spark's
 * changelog V2), which pairs rows by row id from the add and remove actions alone, must give the
 * same rows, but where docs/derived-changes.md says it differs. Replay a table with {@code
 * -Drowtracking.seed=<seed> -Drowtracking.tables=1}; run more with {@code
 * -Drowtracking.tables=100}.
 */
class RowTrackingDifferentialTest {

  private static final long BASE_SEED = Long.getLong("rowtracking.seed", 20261206L);
  private static final int TABLES = Integer.getInteger("rowtracking.tables", 4);

  @TempDir static Path dir;

  static LongStream seeds() {
    return LongStream.range(BASE_SEED, BASE_SEED + TABLES);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void rowTrackingChangesEqualSparksFeed(long seed) {
    RandomWorkload.Description workload =
        RandomWorkload.run(seed, dir, Map.of("delta.enableRowTracking", "true"));
    String table = "delta.`" + workload.path() + "`";
    sql("UPDATE %s SET `id` = `id` + 1000000 WHERE `id` %% 3 = 0", table);
    sql("UPDATE %s SET `id` = `id` WHERE `id` %% 2 = 1", table);
    long latest = SparkOracle.latestVersion(workload.path());
    // Every other table spills each diff to temp files; every other pair reads each commit's
    // files from its log as they are needed (their row ids pass through temp files).
    int diffMemoryRows = seed % 2 == 0 ? 16 : DiffSpill.DEFAULT_MAX_RECORDS_IN_MEMORY;
    int planMemoryFiles = seed % 4 >= 2 ? 0 : ChangeRules.HELD_FILE_ACTIONS;
    System.out.println(
        "RowTrackingDifferentialTest seed="
            + seed
            + " diffMemoryRows="
            + diffMemoryRows
            + " planMemoryFiles="
            + planMemoryFiles
            + " "
            + workload.options());

    Map<Long, List<String>> spark = SparkOracle.changesByVersion(workload.path(), 0, latest);
    int deleted = ChangeDataFiles.deleteAll(Path.of(workload.path()));
    Map<Long, List<String>> ours =
        changes(
            workload.path(), latest, ChangeSource.ROW_TRACKING, diffMemoryRows, planMemoryFiles);

    assertThat(deleted).as("cdc files deleted").isPositive();
    assertThat(ours).as("changes of workload:%n%s", workload).isEqualTo(spark);
    assertChangelogEquals(workload.path(), latest, ours, workload.options().columnMapping());
    System.out.println(
        "RowTrackingDifferentialTest seed="
            + seed
            + " versions="
            + (latest + 1)
            + " rows="
            + spark.values().stream().mapToInt(List::size).sum());
  }

  /**
   * Operations whose feed Spark defines in its own way, one small table each, every version read by
   * row tracking: REORG ... APPLY (PURGE) rewriting files with deletion vectors (Spark's feed has
   * nothing for it, and the updates after it pair by the ids it kept), RESTORE undoing updates and
   * deletes made with deletion vectors (Spark gives its removed and added rows as they are), a
   * shallow clone's first version (its files keep their deletion vectors) and the changes after it,
   * and a clone of an older version into an emptied table. (Open-source Spark has no DEEP CLONE to
   * write one with.)
   */
  @ParameterizedTest
  @EnumSource
  void operationsEqualSparksFeed(Operation operation) throws IOException {
    String path = dir.resolve(operation.name().toLowerCase(Locale.ROOT)).toString();
    operation.writer.accept(path);
    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> spark = SparkOracle.changesByVersion(path, 0, latest);
    ChangeDataFiles.deleteAll(Path.of(path));
    Map<Long, List<String>> ours =
        changes(
            path,
            latest,
            ChangeSource.ROW_TRACKING,
            DiffSpill.DEFAULT_MAX_RECORDS_IN_MEMORY,
            ChangeRules.HELD_FILE_ACTIONS);

    assertThat(ours).isEqualTo(spark);
    assertThat(sourceCounts(path, ChangeSource.ROW_TRACKING))
        .isEqualTo(new VersionSourceCounts(0, latest + 1, 0));
    assertThat(SparkOracle.changelogByVersion(path, 0, latest))
        .as("Spark's changelog V2")
        .isEqualTo(restoresPaired(ours, restoreVersions(path)));
  }

  /**
   * Spark's read-time changelog (delta-spark's changelog V2), which pairs rows by row id from the
   * add and remove actions alone, gives the same rows as row tracking, version by version. It
   * cannot read a table with column mapping in delta-spark 4.4: planning the read fails to map the
   * materialized row id column (and columns added within the range) to physical names.
   */
  private static void assertChangelogEquals(
      String path, long latest, Map<Long, List<String>> ours, String columnMapping) {
    if (columnMapping.equals("none")) {
      assertThat(SparkOracle.changelogByVersion(path, 0, latest))
          .as("Spark's changelog V2")
          .isEqualTo(ours);
    } else {
      assertThatThrownBy(() -> SparkOracle.changelogByVersion(path, 0, latest))
          .hasMessageContaining("DELTA_CANNOT_RESOLVE_COLUMN");
    }
  }

  enum Operation {
    REORG_PURGE(RowTrackingDifferentialTest::reorgPurge),
    RESTORE(RowTrackingDifferentialTest::restore),
    SHALLOW_CLONE(RowTrackingDifferentialTest::shallowClone),
    CLONE_INTO_EMPTIED_TABLE(RowTrackingDifferentialTest::cloneIntoEmptiedTable);

    private final Consumer<String> writer;

    Operation(Consumer<String> writer) {
      this.writer = writer;
    }
  }

  /** A table with the Change Data Feed and row tracking, 30 rows in 3 files at version 1. */
  private static String createTracked(String path, boolean deletionVectors) {
    String table = "delta.`" + path + "`";
    sql(
        "CREATE TABLE %s (id BIGINT, name STRING, amount INT) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.enableRowTracking'='true',"
            + " 'delta.enableDeletionVectors'='%s')",
        table, deletionVectors);
    sql(
        "INSERT INTO %s SELECT id, concat('n', id), CAST(id AS INT) FROM range(0, 30, 1, 3)",
        table);
    return table;
  }

  private static void reorgPurge(String path) {
    String table = createTracked(path, true);
    sql("DELETE FROM %s WHERE id %% 7 = 0", table);
    sql("UPDATE %s SET name = 'u' WHERE id %% 5 = 1", table);
    sql("REORG TABLE %s APPLY (PURGE)", table);
    sql("UPDATE %s SET amount = amount + 1 WHERE id %% 4 = 0", table);
    sql("DELETE FROM %s WHERE id = 3", table);
  }

  private static void restore(String path) {
    String table = createTracked(path, true);
    sql("UPDATE %s SET name = 'u' WHERE id %% 5 = 1", table);
    sql("DELETE FROM %s WHERE id %% 7 = 0", table);
    sql("RESTORE TABLE %s TO VERSION AS OF 1", table);
    sql("UPDATE %s SET amount = amount + 1 WHERE id %% 4 = 0", table);
    sql("RESTORE TABLE %s TO VERSION AS OF 2", table);
  }

  private static void shallowClone(String path) {
    String source = createTracked(path + "-source", true);
    // The clone's files keep deletion vectors that lie in the source's folder.
    sql("DELETE FROM %s WHERE id %% 7 = 0", source);
    sql("UPDATE %s SET name = 'u' WHERE id %% 5 = 1", source);
    String table = "delta.`" + path + "`";
    sql("CREATE TABLE %s SHALLOW CLONE %s", table, source);
    sql("UPDATE %s SET amount = amount + 1 WHERE id %% 4 = 0", table);
    sql("DELETE FROM %s WHERE id = 3", table);
    sql(
        "MERGE INTO %s t USING (SELECT id, 'merged' AS name, 7 AS amount FROM range(25, 35)) s"
            + " ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        table);
  }

  private static void cloneIntoEmptiedTable(String path) {
    String source = createTracked(path + "-source", false);
    sql("UPDATE %s SET name = 'u' WHERE id %% 5 = 1", source);
    String table = createTracked(path, false);
    sql("UPDATE %s SET amount = -1 WHERE id %% 3 = 1", table);
    // Spark clones only into an empty table.
    sql("DELETE FROM %s", table);
    sql("CREATE OR REPLACE TABLE %s SHALLOW CLONE %s VERSION AS OF 1", table, source);
    sql("UPDATE %s SET amount = amount + 1 WHERE id %% 4 = 0", table);
  }

  /**
   * Versions before row tracking was enabled, and the commits that enable it on a table with data
   * (a backfill gives every file row ids), are derived by key; the versions after are paired by row
   * id. change.source=auto does the same on a twin table without the Change Data Feed.
   */
  @Test
  void versionsBeforeRowTrackingAreDerived() throws IOException {
    String path = dir.resolve("enabled-later").toString();
    String twin = dir.resolve("enabled-later-without-cdf").toString();
    long latest = enableRowTrackingLater(path, true);
    assertThat(enableRowTrackingLater(twin, false)).isEqualTo(latest);

    Map<Long, List<String>> spark = SparkOracle.changesByVersion(path, 0, latest);
    ChangeDataFiles.deleteAll(Path.of(path));
    Map<Long, List<String>> ours =
        changes(
            path,
            latest,
            ChangeSource.ROW_TRACKING,
            DiffSpill.DEFAULT_MAX_RECORDS_IN_MEMORY,
            ChangeRules.HELD_FILE_ACTIONS);
    Map<Long, List<String>> auto =
        changes(
            twin,
            latest,
            ChangeSource.AUTO,
            DiffSpill.DEFAULT_MAX_RECORDS_IN_MEMORY,
            ChangeRules.HELD_FILE_ACTIONS);

    // The key diff gives the same rows here: no update before row tracking leaves a row as it was.
    assertThat(ours).isEqualTo(spark);
    assertChangelogOfEnabledLater(path, latest, ours);
    // The twin's commits have their own times.
    assertThat(withoutTimestamps(auto)).isEqualTo(withoutTimestamps(spark));
    // Row tracking reads the versions from the one that enables it on.
    long enabled = firstVersionEnablingRowTracking(twin);
    VersionSourceCounts bySource = new VersionSourceCounts(0, latest - enabled + 1, enabled);
    assertThat(sourceCounts(twin, ChangeSource.AUTO)).isEqualTo(bySource);
    assertThat(sourceCounts(path, ChangeSource.ROW_TRACKING)).isEqualTo(bySource);
  }

  /**
   * Spark's changelog V2 needs row tracking over its whole range; from the version that enables it
   * on, it equals row tracking but for the RESTORE. That RESTORE brings back files written before
   * the updates since, whose rows carry older commit versions: the changelog drops the rows whose
   * id and commit version both survive and pairs the others, with equal values or not, where
   * Spark's feed and row tracking give every row of the files as they are.
   */
  private static void assertChangelogOfEnabledLater(
      String path, long latest, Map<Long, List<String>> ours) throws IOException {
    assertThatThrownBy(() -> SparkOracle.changelogByVersion(path, 0, latest))
        .hasMessageContaining("DELTA_CHANGELOG_ROW_TRACKING_DISABLED_IN_RANGE");
    long enabled = firstVersionEnablingRowTracking(path);
    Map<Long, List<String>> changelog = SparkOracle.changelogByVersion(path, enabled, latest);
    Set<Long> restores = restoreVersions(path);
    assertThat(restores).hasSize(1);
    long restore = restores.iterator().next();
    Map<Long, List<String>> expected = new TreeMap<>(new TreeMap<>(ours).tailMap(enabled));
    expected.remove(restore);
    Map<Long, List<String>> rest = new TreeMap<>(changelog);
    List<String> restored = rest.remove(restore);
    assertThat(rest).isEqualTo(expected);

    // Only update pairs, each image one of row tracking's rows, some of those rows dropped.
    assertThat(restored.stream().filter(row -> row.contains(" update_preimage ")).count())
        .isPositive()
        .isEqualTo(restored.stream().filter(row -> row.contains(" update_postimage ")).count());
    List<String> remaining = new ArrayList<>(ours.get(restore));
    restored.forEach(
        row ->
            assertThat(
                    remaining.remove(
                        row.replace(" update_preimage ", " delete ")
                            .replace(" update_postimage ", " insert ")))
                .as("among row tracking's rows: %s", row)
                .isTrue());
    assertThat(remaining).as("rows copied with their ids and commit versions").isNotEmpty();
  }

  /**
   * Row tracking's changes as Spark's changelog V2 gives them on these tables, whose RESTOREs bring
   * back rows with their ids and older commit versions: in a RESTORE version, a {@code delete} and
   * an {@code insert} of one id (ids are unique and never updated here) are an update pair; a row a
   * deletion vector hid and the RESTORE shows again stays an {@code insert}.
   */
  private static Map<Long, List<String>> restoresPaired(
      Map<Long, List<String>> changes, Set<Long> restores) {
    Map<Long, List<String>> paired = new TreeMap<>(changes);
    for (long version : restores) {
      List<String> rows = changes.get(version);
      Set<String> deleted = idsOf(rows, " delete ");
      Set<String> inserted = idsOf(rows, " insert ");
      paired.put(
          version,
          rows.stream()
              .map(
                  row ->
                      deleted.contains(idOf(row)) && inserted.contains(idOf(row))
                          ? row.replace(" delete ", " update_preimage ")
                              .replace(" insert ", " update_postimage ")
                          : row)
              .sorted()
              .toList());
    }
    return paired;
  }

  private static Set<String> idsOf(List<String> rows, String changeType) {
    Set<String> ids = new TreeSet<>();
    rows.stream().filter(row -> row.contains(changeType)).forEach(row -> ids.add(idOf(row)));
    return ids;
  }

  /** The {@code id} of a canonical row, its first column. */
  private static String idOf(String row) {
    return row.substring(row.indexOf("{id=") + 4, row.indexOf(',', row.indexOf("{id=")));
  }

  /** The versions whose commitInfo names the RESTORE operation. */
  private static Set<Long> restoreVersions(String path) throws IOException {
    Set<Long> restores = new TreeSet<>();
    for (long version = 0; version <= SparkOracle.latestVersion(path); version++) {
      Path commit = Path.of(path, "_delta_log", String.format("%020d.json", version));
      if (Files.readAllLines(commit).stream()
          .anyMatch(
              line ->
                  line.startsWith("{\"commitInfo\"")
                      && line.contains("\"operation\":\"RESTORE\""))) {
        restores.add(version);
      }
    }
    return restores;
  }

  /** The first commit whose metadata sets delta.enableRowTracking=true. */
  private static long firstVersionEnablingRowTracking(String path) throws IOException {
    for (long version = 0; ; version++) {
      Path commit = Path.of(path, "_delta_log", String.format("%020d.json", version));
      if (Files.readAllLines(commit).stream()
          .anyMatch(
              line ->
                  line.startsWith("{\"metaData\"")
                      && line.contains("\"delta.enableRowTracking\":\"true\""))) {
        return version;
      }
    }
  }

  /** The versions a feed of {@code path} from version 0 reads, by source. */
  private static VersionSourceCounts sourceCounts(String path, ChangeSource changeSource) {
    DeltaTable table =
        DeltaTable.open(path, Map.of(), true).withChangeSource(changeSource, List.of("id"));
    try (DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(0))) {
      while (feed.next(1000) != null) {
        // read to the end
      }
      return feed.progress().versions();
    }
  }

  /**
   * A table written without row tracking that enables it on its data, then updated (the key too, a
   * column to itself), merged, optimized, restored and deleted from; returns its latest version.
   */
  private static long enableRowTrackingLater(String path, boolean changeDataFeed) {
    String table = "delta.`" + path + "`";
    sql(
        "CREATE TABLE %s (id BIGINT, name STRING, amount INT) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='%s', 'delta.enableDeletionVectors'='false')",
        table, changeDataFeed);
    sql("INSERT INTO %s SELECT id, concat('n', id), CAST(id AS INT) FROM range(0, 20)", table);
    sql("UPDATE %s SET name = 'before' WHERE id %% 4 = 1", table);
    sql("DELETE FROM %s WHERE id = 2", table);
    long before = SparkOracle.latestVersion(path);
    sql("ALTER TABLE %s SET TBLPROPERTIES ('delta.enableRowTracking'='true')", table);
    assertThat(SparkOracle.latestVersion(path)).as("backfill commits").isGreaterThan(before);
    sql("UPDATE %s SET id = id + 100 WHERE id %% 5 = 0", table);
    long keysUpdated = SparkOracle.latestVersion(path);
    sql("UPDATE %s SET amount = amount WHERE id %% 3 = 0", table);
    sql(
        "MERGE INTO %s t USING (SELECT id, 'merged' AS name, 7 AS amount FROM range(15, 25)) s"
            + " ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        table);
    sql("OPTIMIZE %s", table);
    // Rows updated since come back with their old commit versions: Spark's feed has no pairs.
    sql("RESTORE TABLE %s TO VERSION AS OF %d", table, keysUpdated);
    sql("DELETE FROM %s WHERE id = 7", table);
    return SparkOracle.latestVersion(path);
  }

  /** Canonical rows {@code v<version> @<ms> <type> {...}} without their commit times. */
  private static Map<Long, List<String>> withoutTimestamps(Map<Long, List<String>> byVersion) {
    Map<Long, List<String>> stripped = new TreeMap<>();
    byVersion.forEach(
        (version, rows) ->
            stripped.put(
                version,
                rows.stream().map(row -> row.replaceFirst(" @\\d+ ", " ")).sorted().toList()));
    return stripped;
  }

  private static Map<Long, List<String>> changes(
      String path,
      long latest,
      ChangeSource changeSource,
      int diffMemoryRows,
      int planMemoryFiles) {
    // A shallow clone's files lie in the table it was cloned from.
    DeltaTable source =
        DeltaTable.open(path, Map.of(), true)
            .withChangeSource(changeSource, List.of("id"))
            .withDiffMemoryRows(diffMemoryRows)
            .withPlanMemoryFiles(planMemoryFiles);
    List<FeedReads.ReadRow> rows =
        FeedReads.readAll(source, ChangePosition.InVersion.start(0), 1000);
    return FeedReads.byVersion(rows, FeedReads.schemaAt(source, latest));
  }
}
