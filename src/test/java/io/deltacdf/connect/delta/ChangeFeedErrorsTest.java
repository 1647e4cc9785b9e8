package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.testing.Folders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each way a feed cannot be read fails with a message that names table, version and a way out. */
class ChangeFeedErrorsTest {

  @TempDir Path dir;

  private String table(String name, String properties) {
    String path = dir.resolve(name).toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, v STRING) USING delta TBLPROPERTIES (%s)",
        path, properties);
    return path;
  }

  private static DeltaFeedException failure(Runnable action) {
    return assertThrows(DeltaFeedException.class, action::run);
  }

  private static void readAll(DeltaTable table, ChangePosition from) {
    try (DeltaChangeFeed feed = table.openFeed(from)) {
      ChangeBatch batch;
      do {
        batch = feed.next(1000);
      } while (batch != null);
    }
  }

  @Test
  void pathWithoutTable() {
    String path = dir.resolve("nothing-here").toString();
    DeltaFeedException error =
        failure(
            () -> DeltaTable.open(path, Map.of(), false).resolveStart(new StartSpec.Snapshot()));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.TABLE_NOT_FOUND);
    assertThat(error.getMessage()).contains(path).contains("delta.table.paths");
  }

  @Test
  void tableWithoutChangeDataFeed() {
    String path = table("plain", "'delta.enableChangeDataFeed'='false'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    // The user already starts from a snapshot: the ways out are deriving changes or enabling CDF.
    DeltaFeedException snapshot = failure(() -> table.resolveStart(new StartSpec.Snapshot()));
    assertThat(snapshot.kind()).isEqualTo(DeltaFeedException.Kind.CDF_DISABLED);
    assertThat(snapshot.getMessage())
        .contains(path)
        .contains("version 1")
        .contains("change.source=derived")
        .contains("change.source=auto")
        .contains("ALTER TABLE ... SET TBLPROPERTIES ('delta.enableChangeDataFeed'='true')")
        .doesNotContain("start from a snapshot");

    DeltaFeedException earliest = failure(() -> table.resolveStart(new StartSpec.Earliest()));
    assertThat(earliest.kind()).isEqualTo(DeltaFeedException.Kind.CDF_DISABLED);
    assertThat(earliest.getMessage())
        .contains("ALTER TABLE ... SET TBLPROPERTIES ('delta.enableChangeDataFeed'='true')")
        .contains("change.source=derived or auto");
  }

  @Test
  void startBeforeChangeDataFeedWasEnabledNamesTheFirstReadableVersion() {
    String path = table("late", "'delta.enableChangeDataFeed'='false'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('delta.enableChangeDataFeed'='true')", path);
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    DeltaFeedException error = failure(() -> table.resolveStart(new StartSpec.AtVersion(1)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CDF_DISABLED);
    assertThat(error.getMessage()).contains("version 1").contains("enabled from version 2");

    assertThat(table.resolveStart(new StartSpec.AtVersion(2)))
        .isEqualTo(ChangePosition.InVersion.start(2));
    assertThat(table.resolveStart(new StartSpec.Earliest()))
        .isEqualTo(ChangePosition.InVersion.start(2));
  }

  @Test
  void startOutsideHistory() {
    String path = table("range", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    DeltaFeedException late = failure(() -> table.resolveStart(new StartSpec.AtVersion(5)));
    assertThat(late.kind()).isEqualTo(DeltaFeedException.Kind.INVALID_START);
    assertThat(late.getMessage()).contains("Start version 5").contains("latest version 1");

    DeltaFeedException negative = failure(() -> table.resolveStart(new StartSpec.AtVersion(-1)));
    assertThat(negative.kind()).isEqualTo(DeltaFeedException.Kind.INVALID_START);

    long future = System.currentTimeMillis() + 3_600_000;
    DeltaFeedException timestamp =
        failure(() -> table.resolveStart(new StartSpec.AtTimestamp(future)));
    assertThat(timestamp.kind()).isEqualTo(DeltaFeedException.Kind.INVALID_START);
    assertThat(timestamp.getMessage()).contains("latest version is 1");
  }

  @Test
  void changeDataFeedTurnedOffMidStream() {
    String path = table("turned-off", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('delta.enableChangeDataFeed'='false')", path);
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    DeltaFeedException error = failure(() -> readAll(table, ChangePosition.InVersion.start(0)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CDF_DISABLED);
    assertThat(error.getMessage()).contains(path).contains("at version 2");
  }

  @Test
  void vacuumedDataFileNamesVersionAndFile() throws IOException {
    String path = table("vacuumed", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    Path dataFile;
    try (Stream<Path> files = Files.list(Path.of(path))) {
      dataFile =
          files
              .filter(f -> f.getFileName().toString().endsWith(".parquet"))
              .findFirst()
              .orElseThrow();
    }
    Files.delete(dataFile);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    DeltaFeedException error = failure(() -> readAll(table, ChangePosition.InVersion.start(0)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.HISTORY_MISSING);
    assertThat(error.getMessage())
        .contains(path)
        .contains("version 1")
        .contains(dataFile.getFileName().toString())
        .contains("VACUUM")
        .contains("offsets");
  }

  @Test
  void cleanedUpLogNamesTheEarliestReadableVersion() throws IOException {
    String path =
        table("cleaned", "'delta.enableChangeDataFeed'='true', 'delta.checkpointInterval'='2'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path);
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path);
    Path log = Path.of(path, "_delta_log");
    Files.delete(log.resolve("00000000000000000000.json"));
    Files.delete(log.resolve("00000000000000000001.json"));
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    DeltaFeedException error = failure(() -> table.resolveStart(new StartSpec.AtVersion(0)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.HISTORY_MISSING);
    assertThat(error.getMessage()).contains("version 0").contains("earliest readable version is 2");
    assertThat(table.resolveStart(new StartSpec.Earliest()))
        .isEqualTo(ChangePosition.InVersion.start(2));

    // A stored position in the cleaned-up history fails instead of waiting for version 1.
    DeltaFeedException resume = failure(() -> readAll(table, ChangePosition.InVersion.start(1)));
    assertThat(resume.kind()).isEqualTo(DeltaFeedException.Kind.HISTORY_MISSING);
    assertThat(resume.getMessage())
        .contains(path)
        .contains("version 1 was cleaned up")
        .contains("offsets");
  }

  @Test
  void unknownReaderFeatureIsNamed() throws IOException {
    String path = table("future", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    Files.writeString(
        Path.of(path, "_delta_log", "00000000000000000002.json"),
        "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"UPGRADE\"}}\n"
            + "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
            + "\"readerFeatures\":[\"timeTravelToTheFuture\"],"
            + "\"writerFeatures\":[\"timeTravelToTheFuture\"]}}\n");
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    DeltaFeedException error = failure(() -> readAll(table, ChangePosition.InVersion.start(0)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.UNSUPPORTED_TABLE);
    assertThat(error.getMessage()).contains(path).contains("timeTravelToTheFuture");
  }

  /**
   * A table upgraded to catalog-managed commits: its newest commits may exist only in its catalog,
   * so reading its _delta_log by path must fail, not skip them.
   */
  @Test
  void catalogManagedTableIsRefusedRatherThanReadWithoutItsCatalog() throws IOException {
    String path = table("managed", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    Files.writeString(
        Path.of(path, "_delta_log", "00000000000000000002.json"),
        "{\"commitInfo\":{\"timestamp\":1,\"inCommitTimestamp\":1,\"operation\":\"UPGRADE\"}}\n"
            + "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
            + "\"readerFeatures\":[\"catalogManaged\",\"vacuumProtocolCheck\"],"
            + "\"writerFeatures\":[\"catalogManaged\",\"inCommitTimestamp\","
            + "\"vacuumProtocolCheck\"]}}\n");
    DeltaTable table = DeltaTable.open(path, Map.of(), false);

    DeltaFeedException error = failure(() -> readAll(table, ChangePosition.InVersion.start(0)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.UNSUPPORTED_TABLE);
    assertThat(error.getMessage()).contains(path, "catalog-managed", "would miss them");
  }

  /** Reads a feed until it has caught up, keeping it open for later commits. */
  private static void drain(DeltaChangeFeed feed) {
    while (feed.next(1000) != null) {
      // read on
    }
  }

  /** A replacement that keeps a readable schema streams on: ReplacedTableDifferentialTest. */
  @Test
  void unreadableReplacementIsReportedAtTheNextPoll() {
    String path = table("replaced", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    try (DeltaChangeFeed feed =
        DeltaTable.open(path, Map.of(), false).openFeed(ChangePosition.InVersion.start(0))) {
      drain(feed);
      sql(
          "CREATE OR REPLACE TABLE delta.`%s` USING delta"
              + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')"
              + " AS SELECT CAST(7 AS BIGINT) AS id",
          path);
      DeltaFeedException error = failure(() -> feed.next(1000));
      assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.TABLE_REPLACED);
      assertThat(error.getMessage())
          .contains(path)
          .contains("version 2")
          .contains("column v is gone")
          .contains("snapshot");
    }
  }

  @Test
  void deletedTableIsReportedInsteadOfWaitingForever() throws IOException {
    String path = table("deleted", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    try (DeltaChangeFeed feed =
        DeltaTable.open(path, Map.of(), false).openFeed(ChangePosition.InVersion.start(0))) {
      drain(feed);
      Folders.deleteRecursively(Path.of(path));
      DeltaFeedException error = failure(() -> feed.next(1000));
      assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.TABLE_REPLACED);
      assertThat(error.getMessage()).contains(path).contains("deleted, moved or recreated");
    }
  }

  @Test
  void corruptCommitFileNamesTableAndVersion() throws IOException {
    String path = table("corrupt-log", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    Files.writeString(
        Path.of(path, "_delta_log", "00000000000000000002.json"), "{\"add\": {\"path\": tru");
    DeltaFeedException error =
        failure(
            () ->
                readAll(DeltaTable.open(path, Map.of(), false), ChangePosition.InVersion.start(0)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CORRUPT_FILE);
    assertThat(error.getMessage())
        .contains(path)
        .contains("version 2")
        .contains(Path.of(path, "_delta_log", "00000000000000000002.json").toString());
  }

  @Test
  void undecodableParquetFileNamesTableVersionAndFile() throws IOException {
    String path = table("corrupt-data", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    Path dataFile = parquetFileOf(path);
    Files.writeString(dataFile, "not parquet at all");
    DeltaFeedException error =
        failure(
            () ->
                readAll(DeltaTable.open(path, Map.of(), false), ChangePosition.InVersion.start(0)));
    assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.CORRUPT_FILE);
    assertThat(error.getMessage())
        .contains(path)
        .contains("version 1")
        .contains(dataFile.toString());
  }

  @Test
  void logEntriesPointingOutsideTheTableAreRefusedUnlessAllowed() throws IOException {
    String path = table("escape", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    String victim = table("victim", "'delta.enableChangeDataFeed'='true'");
    sql("INSERT INTO delta.`%s` VALUES (666, 'secret')", victim);
    Path outside = parquetFileOf(victim);
    Files.writeString(
        Path.of(path, "_delta_log", "00000000000000000002.json"),
        "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\"}}\n"
            + "{\"add\":{\"path\":\"../victim/"
            + outside.getFileName()
            + "\",\"partitionValues\":{},\"size\":"
            + Files.size(outside)
            + ",\"modificationTime\":1,\"dataChange\":true}}\n");

    DeltaFeedException error =
        failure(
            () ->
                readAll(DeltaTable.open(path, Map.of(), false), ChangePosition.InVersion.start(0)));
    assertThat(error.getMessage())
        .contains("version 2")
        .contains("outside the table's folder")
        .contains("files.outside.table.allowed");

    List<String> ids = new ArrayList<>();
    try (DeltaChangeFeed feed =
        DeltaTable.open(path, Map.of(), true).openFeed(ChangePosition.InVersion.start(2))) {
      feed.next(10).rows().forEach(r -> ids.add(String.valueOf(r.values()[0])));
    }
    assertThat(ids).containsExactly("666");
  }

  private static Path parquetFileOf(String tablePath) throws IOException {
    try (Stream<Path> files = Files.list(Path.of(tablePath))) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".parquet"))
          .findFirst()
          .orElseThrow();
    }
  }
}
