package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.task.testing.FlakyFileSystem;
import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the task promises under real operations, checked through a {@link SimulatedWorker} that
 * stores offsets and keeps transactions as Connect does: positions reached without a record survive
 * a restart, storage outages at start are retried, a poll stays short, and a transaction never
 * holds two versions.
 */
class DeliveryGuaranteesTest {

  @TempDir Path dir;

  @AfterEach
  void storeUp() {
    FlakyFileSystem.down(false);
  }

  private static Map<String, String> settings(String name, String tables, String... more) {
    return ConnectorConfig.forTables(tables)
        .name(name)
        .pollIntervalMs(50)
        .withAll(FlakyFileSystem.settings())
        .with(more)
        .buildTask();
  }

  private static List<SourceRecord> onTopic(List<SourceRecord> records, String topic) {
    return records.stream().filter(r -> r.topic().equals(topic)).toList();
  }

  private static String describe(SourceRecord record) {
    Struct value = (Struct) record.value();
    return record.headers().lastWithName("_change_type").value() + " " + value.get("id");
  }

  private static void createTable(String path) {
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true', 'delta.checkpointInterval'='2')",
        path);
  }

  @Test
  void aLatestStartIsPinnedByAHeartbeatSoCommitsWhileTheWorkerIsDownAreDelivered()
      throws Exception {
    String path = dir.resolve("pinned").toString();
    createTable(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    SimulatedWorker worker = new SimulatedWorker(false);
    Map<String, String> settings = settings("pinned", path, "start.mode", "latest");

    worker.start(settings);
    List<SourceRecord> first = worker.poll(2);
    worker.stop();

    assertThat(first)
        .singleElement()
        .satisfies(
            heartbeat -> {
              assertThat(heartbeat.topic()).isEqualTo("__delta-cdf-heartbeat.pinned");
              assertThat(((Struct) heartbeat.value()).getInt64("version")).isEqualTo(2L);
              assertThat(((Struct) heartbeat.key()).getString("table")).isEqualTo(path);
            });
    assertThat(worker.storedPosition(path)).isEqualTo(ChangePosition.InVersion.start(2L));

    sql("INSERT INTO delta.`%s` VALUES (2, 'b'), (3, 'c')", path); // v2
    sql("UPDATE delta.`%s` SET name = 'z' WHERE id = 1", path); // v3
    worker.start(settings);
    List<SourceRecord> changes = onTopic(worker.poll(3), "pinned");
    worker.stop();

    assertThat(changes)
        .extracting(DeliveryGuaranteesTest::describe)
        .containsExactlyInAnyOrder(
            "insert 2", "insert 3", "update_preimage 1", "update_postimage 1");
  }

  @Test
  void filteredRowsMoveTheStoredPositionSoLogCleanupDoesNotStrandARestart() throws Exception {
    String path = dir.resolve("filtered").toString();
    createTable(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    SimulatedWorker worker = new SimulatedWorker(false);
    Map<String, String> settings =
        settings(
            "filtered", path,
            "start.mode", "earliest",
            "change.types", "insert",
            "heartbeat.interval.ms", "1");
    worker.start(settings);
    assertThat(onTopic(worker.poll(2), "filtered"))
        .extracting(DeliveryGuaranteesTest::describe)
        .containsExactly("insert 1");
    for (int i = 0; i < 4; i++) {
      sql("UPDATE delta.`%s` SET name = 'u%d' WHERE id = 1", path, i); // v2..v5
    }
    Thread.sleep(5);
    assertThat(onTopic(worker.poll(3), "filtered")).isEmpty();
    worker.stop();
    assertThat(worker.storedPosition(path)).isEqualTo(ChangePosition.InVersion.start(6L));

    // Log cleanup while the worker is down: commits before the checkpoint at 4 are gone.
    Path log = Path.of(path, "_delta_log");
    for (int version = 0; version < 4; version++) {
      Files.delete(log.resolve(String.format("%020d.json", version)));
    }
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path); // v6
    worker.start(settings);
    List<SourceRecord> after = onTopic(worker.poll(3), "filtered");
    worker.stop();
    assertThat(after).extracting(DeliveryGuaranteesTest::describe).containsExactly("insert 2");
  }

  @Test
  void pollsStayShortOverThousandsOfVersionsWithoutRowsAndARestartDoesNotReadThemAgain()
      throws Exception {
    String path = dir.resolve("quiet").toString();
    createTable(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    int quietVersions = 3_000;
    writeCommitsWithoutData(Path.of(path), 2, quietVersions);
    long end = 2 + quietVersions;
    SimulatedWorker worker = new SimulatedWorker(false);
    Map<String, String> settings =
        settings("quiet", path, "start.mode", "earliest", "heartbeat.interval.ms", "1");
    worker.start(settings);
    List<SourceRecord> changes = new ArrayList<>();
    long slowestMs = 0;
    long readingMs = 0;
    int polls = 0;
    while (!ChangePosition.InVersion.start(end).equals(worker.storedPosition(path))
        && polls++ < 200) {
      long started = System.nanoTime();
      changes.addAll(onTopic(worker.poll(), "quiet"));
      long pollMs = (System.nanoTime() - started) / 1_000_000;
      slowestMs = Math.max(slowestMs, pollMs);
      readingMs += pollMs;
    }
    worker.stop();
    System.out.printf(
        "DeliveryGuaranteesTest: %d versions without rows in %d polls (%d ms), slowest %d ms%n",
        quietVersions, polls, readingMs, slowestMs);

    assertThat(worker.storedPosition(path)).isEqualTo(ChangePosition.InVersion.start(end));
    assertThat(polls).isGreaterThan(1); // the versions were not passed over in one poll
    assertThat(slowestMs).isLessThan(5_000);
    assertThat(changes).extracting(DeliveryGuaranteesTest::describe).containsExactly("insert 1");

    worker.start(settings);
    long restarted = System.nanoTime();
    assertThat(worker.poll(2)).isEmpty();
    worker.stop();
    System.out.printf(
        "DeliveryGuaranteesTest: restart and two polls in %d ms%n",
        (System.nanoTime() - restarted) / 1_000_000);
    // The restart resumed at the stored end: a re-read from an earlier version would have stored
    // its progress with heartbeats (interval 1 ms) on the way. Time is not compared: opening a
    // log without a checkpoint replays every commit either way.
    assertThat(worker.storedPosition(path)).isEqualTo(ChangePosition.InVersion.start(end));
  }

  /** Commits that hold only a commitInfo action, as metadata-only operations leave behind. */
  private static void writeCommitsWithoutData(Path table, long from, int count) throws IOException {
    Path log = table.resolve("_delta_log");
    long now = System.currentTimeMillis();
    for (long version = from; version < from + count; version++) {
      Files.writeString(
          log.resolve(String.format("%020d.json", version)),
          "{\"commitInfo\":{\"timestamp\":"
              + (now + version)
              + ",\"operation\":\"SET TBLPROPERTIES\",\"operationParameters\":{}}}\n");
    }
  }

  @Test
  void anUnreachableStoreWhileTheTaskStartsIsRetriedAndNoRowIsLost() throws Exception {
    String local = dir.resolve("local").toString();
    Path remote = dir.resolve("remote");
    createTable(local);
    createTable(remote.toString());
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", local);
    sql("INSERT INTO delta.`%s` VALUES (3, 'c'), (4, 'd')", remote);
    String remoteUri = FlakyFileSystem.uri(remote);
    SimulatedWorker worker = new SimulatedWorker(false);

    FlakyFileSystem.down(true);
    worker.start(
        settings(
            "outage",
            local + "," + remoteUri,
            "start.mode",
            "earliest",
            "topic.template",
            "outage-${table}"));
    List<SourceRecord> duringOutage = worker.poll(3);
    FlakyFileSystem.down(false);
    List<SourceRecord> afterOutage = new ArrayList<>();
    for (int i = 0; i < 40 && onTopic(afterOutage, "outage-remote").size() < 2; i++) {
      afterOutage.addAll(worker.poll());
    }
    worker.stop();

    assertThat(onTopic(duringOutage, "outage-local"))
        .extracting(DeliveryGuaranteesTest::describe)
        .containsExactlyInAnyOrder("insert 1", "insert 2");
    assertThat(onTopic(duringOutage, "outage-remote")).isEmpty();
    assertThat(onTopic(afterOutage, "outage-remote"))
        .extracting(DeliveryGuaranteesTest::describe)
        .containsExactlyInAnyOrder("insert 3", "insert 4");
    assertThat(onTopic(afterOutage, "outage-local")).isEmpty();
  }

  @Test
  void aStoreFailureAfterRowsOfThePollWereConvertedLosesNoneOfThem() throws Exception {
    Path table = dir.resolve("midpoll");
    createTable(table.toString());
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", table); // v1
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", table); // v2
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", table); // v3
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings("midpoll", FlakyFileSystem.uri(table), "start.mode", "earliest"));
    // v1 and v2 are converted in the poll that then fails to read v3's data file.
    FlakyFileSystem.unreachable(dataFileOf(table, 3));
    List<SourceRecord> firstPoll = onTopic(worker.poll(), "midpoll");
    FlakyFileSystem.down(false);
    List<SourceRecord> later = new ArrayList<>();
    for (int i = 0; i < 40 && later.isEmpty(); i++) {
      later.addAll(onTopic(worker.poll(), "midpoll"));
    }
    worker.stop();

    assertThat(firstPoll)
        .extracting(DeliveryGuaranteesTest::describe)
        .containsExactly("insert 1", "insert 2");
    assertThat(later).extracting(DeliveryGuaranteesTest::describe).containsExactly("insert 3");
  }

  @Test
  void aStoreFailureWhileResnapshottingDropsNoRowOfAnotherTableConvertedInThatPoll()
      throws Exception {
    String healthy = dir.resolve("healthy").toString();
    Path cleaned = dir.resolve("cleaned");
    createTable(healthy);
    createTable(cleaned.toString());
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", healthy); // v1
    sql("INSERT INTO delta.`%s` VALUES (10, 'a')", cleaned); // v1
    Map<String, String> settings =
        settings(
            "resnap",
            healthy + "," + FlakyFileSystem.uri(cleaned),
            "start.mode",
            "earliest",
            "on.history.missing",
            "resnapshot",
            "topic.template",
            "resnap-${table}");
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings);
    worker.poll(3);
    worker.stop();
    // While the task is down: a new row for one table; the other's log is cleaned up past the
    // position stored for it (a checkpoint at 4), so that it must start over from a snapshot.
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", healthy); // v2
    for (int i = 0; i < 4; i++) {
      sql("UPDATE delta.`%s` SET name = 'u%d'", cleaned, i); // v2..v5
    }
    for (int version = 0; version < 4; version++) {
      Files.delete(cleaned.resolve("_delta_log").resolve(String.format("%020d.json", version)));
    }
    // Without its checksum file, loading the latest snapshot reads the latest commit: once when
    // the table is opened, and again when the snapshot to start over from is resolved.
    FlakyFileSystem.unreachable(String.format("%020d.crc", 5));
    FlakyFileSystem.unreachableAfter(String.format("%020d.json", 5), 1);
    worker.start(settings);
    List<SourceRecord> firstPoll = worker.poll();
    FlakyFileSystem.down(false);
    List<SourceRecord> later = new ArrayList<>();
    for (int i = 0; i < 40 && onTopic(later, "resnap-cleaned").isEmpty(); i++) {
      later.addAll(worker.poll());
    }
    worker.stop();

    assertThat(onTopic(firstPoll, "resnap-healthy"))
        .extracting(DeliveryGuaranteesTest::describe)
        .containsExactly("insert 2");
    assertThat(onTopic(firstPoll, "resnap-cleaned")).isEmpty();
    assertThat(onTopic(later, "resnap-cleaned"))
        .extracting(DeliveryGuaranteesTest::describe)
        .containsExactly("insert 10");
  }

  /** The file name of the (only) data file that {@code version} added. */
  private static String dataFileOf(Path table, long version) throws IOException {
    try (Stream<String> lines =
        Files.lines(table.resolve("_delta_log").resolve(String.format("%020d.json", version)))) {
      String add = lines.filter(l -> l.startsWith("{\"add\"")).findFirst().orElseThrow();
      String path = add.replaceFirst("^\\{\"add\":\\{\"path\":\"([^\"]+)\".*$", "$1");
      return Path.of(path).getFileName().toString();
    }
  }

  /**
   * With exactly-once, a table whose store fails in the middle of a version aborts its open
   * transaction rather than hold it through the outage: the other tables of the task go on, and the
   * version is read again, whole, once the store is back.
   */
  @Test
  void aTableThatBacksOffInTheMiddleOfAVersionAbortsItsTransactionAndTheOthersGoOn()
      throws Exception {
    Path waiting = dir.resolve("waiting");
    String other = dir.resolve("other").toString();
    createTable(waiting.toString());
    createTable(other);
    spark()
        .range(0, 6, 1, 2)
        .selectExpr("id", "'n' AS name")
        .write()
        .format("delta")
        .mode("append")
        .save(waiting.toString()); // v1: two files
    sql("INSERT INTO delta.`%s` VALUES (100, 'o')", other); // v1
    String waitingUri = FlakyFileSystem.uri(waiting);
    SimulatedWorker worker = new SimulatedWorker(true);
    worker.start(
        settings(
            "eos", waitingUri + "," + other,
            "start.mode", "version",
            "start.version", "1",
            "record.format", "envelope",
            "key.columns", "id",
            "batch.max.rows", "3"));
    worker.poll(); // the first file of v1 of "waiting", in part
    FlakyFileSystem.down(true);
    for (int i = 0; i < 40 && onTopic(worker.delivered(), "other").isEmpty(); i++) {
      worker.poll();
    }
    List<SourceRecord> committedInOutage = new ArrayList<>(worker.delivered());
    ChangePosition storedInOutage = worker.storedPosition(waitingUri);
    FlakyFileSystem.down(false);
    for (int i = 0; i < 40 && onTopic(worker.delivered(), "waiting").size() < 6; i++) {
      worker.poll();
    }
    worker.stop();

    assertThat(onTopic(committedInOutage, "waiting")).as("committed during the outage").isEmpty();
    assertThat(onTopic(committedInOutage, "other")).as("committed during the outage").hasSize(1);
    assertThat(storedInOutage)
        .as("the stored offset of the waiting table during the outage")
        .isEqualTo(ChangePosition.InVersion.start(1L));
    assertThat(onTopic(worker.delivered(), "waiting")).hasSize(6);
    assertThat(onTopic(worker.delivered(), "other")).hasSize(1);
    worker.assertTransactionsHoldOneVersionEach("__delta-cdf-heartbeat.eos");
  }

  /**
   * With exactly-once, an abort and another table's heartbeat fall in one poll: the table listed
   * first passed over a version without rows, so its heartbeat is due just as the second table
   * backs off in the middle of a version. The heartbeat waits for the next poll; a commit at it
   * would have committed the half-read version before the abort.
   */
  @Test
  void aHeartbeatDueWhenAnotherTableAbortsItsTransactionDoesNotCommitTheHalfReadVersion()
      throws Exception {
    String other = dir.resolve("other").toString();
    Path waiting = dir.resolve("waiting");
    createTable(other);
    createTable(waiting.toString());
    String waitingUri = FlakyFileSystem.uri(waiting);
    SimulatedWorker worker = new SimulatedWorker(true);
    worker.start(
        settings(
            "eos-heartbeat", other + "," + waitingUri,
            "start.mode", "latest",
            "heartbeat.interval.ms", "1",
            "key.columns", "id",
            "batch.max.rows", "3"));
    worker.poll(); // both tables open at their latest version; heartbeats pin it
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('note'='no rows')", other); // v1
    spark()
        .range(0, 6, 1, 2)
        .selectExpr("id", "'n' AS name")
        .write()
        .format("delta")
        .mode("append")
        .save(waiting.toString()); // v1: two files
    worker.poll(); // v1 of "other" (no rows), then part of v1 of "waiting"
    FlakyFileSystem.down(true);
    Thread.sleep(5); // the heartbeat of "other" is due
    worker.poll(5);
    List<SourceRecord> committedInOutage =
        worker.transactions().stream().flatMap(List::stream).toList();
    FlakyFileSystem.down(false);
    for (int i = 0; i < 40 && onTopic(worker.delivered(), "waiting").size() < 6; i++) {
      worker.poll();
    }
    worker.stop();

    assertThat(onTopic(committedInOutage, "waiting")).as("committed during the outage").isEmpty();
    assertThat(onTopic(worker.delivered(), "waiting")).hasSize(6);
    assertThat(worker.storedPosition(other))
        .as("the stored offset of the other table")
        .isEqualTo(ChangePosition.InVersion.start(2L));
    worker.assertTransactionsHoldOneVersionEach("__delta-cdf-heartbeat.eos-heartbeat");
  }

  /**
   * A re-snapshot replaced a stored offset whose history is gone; an exactly-once transaction
   * aborted in the middle of that snapshot goes back to the snapshot's start, not to the old offset
   * (from which the task would have to start over from a snapshot once more).
   */
  @Test
  void anAbortInTheMiddleOfAResnapshotReturnsToItsStartNotToTheOffsetWhoseHistoryIsGone()
      throws Exception {
    Path table = dir.resolve("resnapshot");
    createTable(table.toString()); // v0, checkpoints every 2 versions
    for (long from = 0; from < 12; from += 6) { // v1, v2: two files each; checkpoint at v2
      spark()
          .range(from, from + 6, 1, 2)
          .selectExpr("id", "'r' AS name")
          .write()
          .format("delta")
          .mode("append")
          .save(table.toString());
    }
    for (int version = 0; version < 2; version++) {
      Files.delete(table.resolve("_delta_log").resolve(String.format("%020d.json", version)));
    }
    String uri = FlakyFileSystem.uri(table);
    SimulatedWorker worker = new SimulatedWorker(true);
    worker.alterOffset(uri, Map.of("version", 1L));
    worker.start(
        settings("resnapshot", uri, "on.history.missing", "resnapshot", "batch.max.rows", "2"));
    worker.poll(); // the first rows of the snapshot at v2
    FlakyFileSystem.down(true);
    worker.poll(5);
    ChangePosition storedInOutage = worker.storedPosition(uri);
    FlakyFileSystem.down(false);
    for (int i = 0; i < 40 && onTopic(worker.delivered(), "resnapshot").size() < 12; i++) {
      worker.poll();
    }
    worker.stop();

    assertThat(storedInOutage)
        .as("the stored offset during the outage")
        .isEqualTo(ChangePosition.InSnapshot.start(2));
    assertThat(onTopic(worker.delivered(), "resnapshot")).hasSize(12);
  }

  @Test
  void aVersionClosedByFilteredRowsEndsItsTransactionBeforeTheNextVersion() throws Exception {
    String path = dir.resolve("overwrite").toString();
    createTable(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path); // v1
    sql("INSERT OVERWRITE delta.`%s` VALUES (3, 'c'), (4, 'd')", path); // v2: adds and removes
    sql("INSERT INTO delta.`%s` VALUES (5, 'e')", path); // v3
    // Keep the change type of v2's first file and filter out that of its last, so that the rows
    // closing v2 produce no record.
    String first = firstDataActionOf(Path.of(path), 2);
    String kept = first.equals("add") ? "insert" : "delete";
    SimulatedWorker worker = new SimulatedWorker(true);
    worker.start(
        settings(
            "overwrite", path,
            "start.mode", "version",
            "start.version", "2",
            "change.types", kept,
            "tombstones.on.delete", "false",
            "batch.max.rows", "1"));
    List<SourceRecord> records = worker.poll(8);
    worker.stop();

    assertThat(onTopic(records, "overwrite")).isNotEmpty();
    worker.assertTransactionsHoldOneVersionEach("__delta-cdf-heartbeat.overwrite");
  }

  /**
   * At its rate limit a task stops reading in the middle of a version: the version's transaction
   * stays open across the polls that wait, and still holds the whole version and nothing else.
   */
  @Test
  void aRateLimitDelaysAVersionWithoutSplittingItsTransaction() throws Exception {
    String path = dir.resolve("limited").toString();
    createTable(path);
    for (int version = 1; version <= 2; version++) {
      String values =
          Stream.iterate(1, id -> id + 1)
              .limit(60)
              .map(id -> "(" + id + ", 'n')")
              .reduce((a, b) -> a + ", " + b)
              .orElseThrow();
      sql("INSERT INTO delta.`%s` VALUES %s", path, values); // v1, v2: 60 rows each
    }
    SimulatedWorker worker = new SimulatedWorker(true);
    worker.start(settings("limited", path, "start.mode", "earliest", "max.rows.per.second", "100"));
    List<Integer> recordsPerPoll = new ArrayList<>();
    long firstNanos = 0;
    int delivered = 0;
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (delivered < 120 && System.nanoTime() < deadline) {
      int records = onTopic(worker.poll(), "limited").size();
      if (records > 0 && delivered == 0) {
        firstNanos = System.nanoTime();
      }
      delivered += records;
      recordsPerPoll.add(records);
    }
    double seconds = (System.nanoTime() - firstNanos) / 1e9;
    worker.stop();

    assertThat(delivered).isEqualTo(120);
    // 10 records free, then 110 at 100 a second.
    assertThat(seconds).as("seconds from the first record to the last").isBetween(1.0, 1.5);
    assertThat(recordsPerPoll).as("polls that waited for the limit").contains(0);
    worker.assertTransactionsHoldOneVersionEach("__delta-cdf-heartbeat.limited");
    assertThat(worker.transactions())
        .extracting(t -> onTopic(t, "limited").size())
        .filteredOn(n -> n > 0)
        .containsExactly(60, 60);
  }

  @Test
  void anEmptyLastFileStillEndsItsVersionAndTheSnapshot() throws Exception {
    Path table = dir.resolve("emptylast");
    createTable(table.toString());
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", table); // v1
    // v2 adds a file with rows and, last, a file with none (both in path and in log order).
    Path data = writeParquet("SELECT CAST(id AS BIGINT) id, 'n' name FROM range(2, 4)");
    Path empty = writeParquet("SELECT CAST(1 AS BIGINT) id, 'n' name WHERE false");
    appendCommit(table, 2, Map.of("a-data.parquet", data, "z-empty.parquet", empty));
    sql("INSERT INTO delta.`%s` VALUES (4, 'd')", table); // v3

    SimulatedWorker changes = new SimulatedWorker(true);
    changes.start(
        settings(
            "emptylast",
            table.toString(),
            "start.mode",
            "version",
            "start.version",
            "2",
            "record.format",
            "envelope",
            "key.columns",
            "id"));
    List<SourceRecord> changed = onTopic(changes.poll(4), "emptylast");
    changes.stop();
    assertThat(changed).hasSize(3);
    changes.assertTransactionsHoldOneVersionEach("__delta-cdf-heartbeat.emptylast");

    SimulatedWorker snapshot = new SimulatedWorker(false);
    snapshot.start(
        settings(
            "emptysnap",
            table.toString(),
            "start.mode",
            "snapshot",
            "record.format",
            "envelope",
            "key.columns",
            "id",
            "topic.template",
            "emptysnap"));
    List<SourceRecord> rows = onTopic(snapshot.poll(4), "emptysnap");
    snapshot.stop();
    assertThat(rows)
        .extracting(r -> ((Struct) r.value()).getStruct("source").getString("snapshot"))
        .containsExactly("true", "true", "true", "last");
  }

  /** A single Parquet file holding the result of {@code query}. */
  private Path writeParquet(String query) throws IOException {
    Path out = Files.createTempDirectory(dir, "parquet");
    io.deltacdf.connect.testing.SparkHarness.spark()
        .sql(query)
        .coalesce(1)
        .write()
        .mode("overwrite")
        .parquet(out.toString());
    try (Stream<Path> files = Files.list(out)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".parquet"))
          .findFirst()
          .orElseThrow();
    }
  }

  /** Commits {@code version}: the given files copied into the table and added, in map order. */
  private static void appendCommit(Path table, long version, Map<String, Path> files)
      throws IOException {
    StringBuilder commit = new StringBuilder();
    long now = System.currentTimeMillis();
    commit
        .append("{\"commitInfo\":{\"timestamp\":")
        .append(now)
        .append(",\"operation\":\"WRITE\",\"operationParameters\":{}}}\n");
    for (Map.Entry<String, Path> file : new java.util.TreeMap<>(files).entrySet()) {
      Path target = table.resolve(file.getKey());
      Files.copy(file.getValue(), target);
      commit
          .append("{\"add\":{\"path\":\"")
          .append(file.getKey())
          .append("\",\"partitionValues\":{},\"size\":")
          .append(Files.size(target))
          .append(",\"modificationTime\":")
          .append(now)
          .append(",\"dataChange\":true}}\n");
    }
    Files.writeString(
        table.resolve("_delta_log").resolve(String.format("%020d.json", version)), commit);
  }

  private static String firstDataActionOf(Path table, long version) throws IOException {
    try (Stream<String> lines =
        Files.lines(table.resolve("_delta_log").resolve(String.format("%020d.json", version)))) {
      return lines
          .filter(l -> l.startsWith("{\"add\"") || l.startsWith("{\"remove\""))
          .findFirst()
          .map(l -> l.startsWith("{\"add\"") ? "add" : "remove")
          .orElseThrow();
    }
  }
}
