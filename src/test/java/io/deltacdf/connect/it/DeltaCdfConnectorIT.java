package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Folders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector on a real KRaft broker and a real distributed Connect worker, deployed only through
 * the REST API. One cluster serves the whole class; each test uses its own tables, connector names
 * and topics.
 */
class DeltaCdfConnectorIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  @RegisterExtension static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder());

  @Test
  void snapshotThenLiveChangesMatchSpark() {
    String path = CdfTables.keyed(dir.resolve("customers"));
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann'), (2, 'bob'), (3, 'cy')", path);
    deploy("snapshot-live", config(path, "snapshot-live.${table}"));

    List<ConsumerRecord<byte[], byte[]>> snapshot = read("snapshot-live.customers", 3);
    assertThat(snapshot)
        .extracting(r -> TopicReader.header(r, "_change_type"))
        .containsOnly("insert");
    assertThat(snapshot)
        .extracting(r -> TopicReader.longHeader(r, "_commit_version"))
        .containsOnly(1L);
    assertThat(snapshot)
        .extracting(r -> TopicReader.jsonKey(r.key()).get("id").asLong())
        .containsExactlyInAnyOrder(1L, 2L, 3L);
    // The producer stamps records when it sends them, after the commit (record.timestamp).
    assertThat(snapshot)
        .allSatisfy(
            r ->
                assertThat(r.timestamp())
                    .isGreaterThanOrEqualTo(TopicReader.longHeader(r, "_commit_timestamp")));

    sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
    sql("DELETE FROM delta.`%s` WHERE id = 3", path);
    List<ConsumerRecord<byte[], byte[]>> all = read("snapshot-live.customers", 7);
    // A tombstone with the deleted key follows the delete, for compacted topics and sinks.
    ConsumerRecord<byte[], byte[]> tombstone = all.get(6);
    assertThat(tombstone.value()).isNull();
    assertThat(TopicReader.jsonKey(tombstone.key()).get("id").asLong()).isEqualTo(3L);
    assertThat(TopicReader.header(all.get(5), "_change_type")).isEqualTo("delete");
    assertThat(ChangeDescriptions.ofRecords(all.subList(0, 6), "id", "name"))
        .containsExactlyInAnyOrderElementsOf(
            ChangeDescriptions.ofSparkFeedWithoutTombstones(path, 1, "id", "name"));
  }

  @Test
  void tableWhosePathHasASpaceStreams() {
    String path = CdfTables.keyed(dir.resolve("my lake/spaced"));
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann'), (2, 'bob')", path);
    deploy("spaced", config(path, "spaced.${table}"));
    assertThat(read("spaced.spaced", 2))
        .extracting(r -> TopicReader.header(r, "_change_type"))
        .containsOnly("insert");

    sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
    sql("DELETE FROM delta.`%s` WHERE id = 1", path);
    List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, "id", "name");
    assertThat(expected).hasSize(2 + 2 + 1 + 1);
    assertThat(ChangeDescriptions.ofRecords(read("spaced.spaced", expected.size()), "id", "name"))
        .containsExactlyInAnyOrderElementsOf(expected);
    cluster.get().rest().delete("spaced");
  }

  @Test
  void everyStartModeStartsWhereItSays() throws InterruptedException {
    String path = CdfTables.keyed(dir.resolve("modes"));
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path);
    Thread.sleep(50);
    long beforeThird = System.currentTimeMillis();
    Thread.sleep(50);
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path);

    deploy("mode-earliest", config(path, "earliest.${table}", "start.mode", "earliest"));
    deploy(
        "mode-version",
        config(path, "version.${table}", "start.mode", "version", "start.version", "2"));
    deploy(
        "mode-timestamp",
        config(
            path,
            "timestamp.${table}",
            "start.mode",
            "timestamp",
            "start.timestamp",
            Long.toString(beforeThird)));
    deploy("mode-latest", config(path, "latest.${table}", "start.mode", "latest"));
    awaitFirstPoll("mode-latest");
    sql("INSERT INTO delta.`%s` VALUES (4, 'd')", path);

    assertThat(versions(read("earliest.modes", 4))).containsExactly(1L, 2L, 3L, 4L);
    assertThat(versions(read("version.modes", 3))).containsExactly(2L, 3L, 4L);
    assertThat(versions(read("timestamp.modes", 2))).containsExactly(3L, 4L);
    assertThat(versions(read("latest.modes", 1))).containsExactly(4L);
  }

  @Test
  void manyTablesSpreadOverTwoTasks() {
    List<String> paths = new ArrayList<>();
    for (String name : List.of("alpha", "beta", "gamma")) {
      String path = CdfTables.keyed(dir.resolve(name));
      sql("INSERT INTO delta.`%s` VALUES (1, '%s'), (2, '%s')", path, name, name);
      paths.add(path);
    }
    Map<String, String> config = config(String.join(",", paths), "many.${table}");
    config.put("tasks.max", "2");
    cluster.get().rest().deploy("many", config, 2, WAIT);

    for (String name : List.of("alpha", "beta", "gamma")) {
      List<ConsumerRecord<byte[], byte[]>> records = read("many." + name, 2);
      assertThat(records)
          .extracting(r -> TopicReader.jsonValue(r.value()).get("name").asText())
          .containsOnly(name);
    }
    assertThat(cluster.get().rest().offsets("many").get("offsets")).hasSize(3);
  }

  @Test
  void workerRestartInsideALargeVersionLosesNothing() {
    String path = CdfTables.keyed(dir.resolve("large"));
    int rows = 20_000;
    spark()
        .range(0, rows, 1, 4)
        .selectExpr("id", "concat('name-', id) AS name")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
    Map<String, String> config = config(path, "restart.${table}");
    config.put("batch.max.rows", "100");
    deploy("restart", config);

    List<ConsumerRecord<byte[], byte[]>> beforeStop =
        TopicReader.readAll(cluster.get().bootstrapServers(), "restart.large", 2_000, WAIT, false);
    cluster.get().stopWorker();
    cluster.get().startWorker();
    cluster.get().rest().awaitRunning("restart", 1, WAIT);
    // At least as many records as rows first (a loaded machine may pause longer than the quiet
    // window below), then everything, duplicates included, until the topic is quiet.
    TopicReader.readAll(cluster.get().bootstrapServers(), "restart.large", rows, WAIT, false);
    List<ConsumerRecord<byte[], byte[]>> all =
        TopicReader.readUntilQuiet(
            cluster.get().bootstrapServers(), "restart.large", Duration.ofSeconds(5), WAIT, false);

    Set<Long> ids = new HashSet<>();
    all.forEach(r -> ids.add(TopicReader.jsonValue(r.value()).get("id").asLong()));
    System.out.printf(
        "restart: %d records before the stop, %d in all, %d distinct, %d duplicates%n",
        beforeStop.size(), all.size(), ids.size(), all.size() - ids.size());
    assertThat(beforeStop.size()).isLessThan(rows);
    assertThat(ids).hasSize(rows);
  }

  @Test
  void offsetsCanBeMovedToAVersionAndReset() {
    String path = CdfTables.keyed(dir.resolve("movable"));
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO delta.`%s` VALUES (%d, 'v%d')", path, i, i);
    }
    deploy("movable", config(path, "movable.${table}", "start.mode", "earliest"));
    assertThat(versions(read("movable.movable", 3))).containsExactly(1L, 2L, 3L);

    cluster.get().rest().stop("movable");
    cluster.get().rest().awaitStopped("movable", WAIT);
    ConnectRest.Response malformed =
        cluster.get().rest().patchOffsets("movable", offsetsBody(path, Map.of("version", "two")));
    assertThat(malformed.status()).isGreaterThanOrEqualTo(400);
    assertThat(malformed.body().toString()).contains("'version' must be a whole number");

    ConnectRest.Response moved =
        cluster.get().rest().patchOffsets("movable", offsetsBody(path, Map.of("version", 2)));
    assertThat(moved.status()).as(moved.body().toString()).isEqualTo(200);
    cluster.get().rest().resume("movable");
    cluster.get().rest().awaitRunning("movable", 1, WAIT);
    assertThat(versions(read("movable.movable", 5))).containsExactly(1L, 2L, 3L, 2L, 3L);

    cluster.get().rest().stop("movable");
    cluster.get().rest().awaitStopped("movable", WAIT);
    assertThat(cluster.get().rest().deleteOffsets("movable").status()).isEqualTo(200);
    cluster.get().rest().resume("movable");
    cluster.get().rest().awaitRunning("movable", 1, WAIT);
    assertThat(versions(read("movable.movable", 8))).endsWith(1L, 2L, 3L);
  }

  /**
   * A table deleted and created again at its path with as many versions: the stored offset belongs
   * to the old table. With on.history.missing=resnapshot the new table starts by start.mode (all
   * four of its versions arrive); with the default (fail) the task fails naming both table ids.
   */
  @Test
  void aTableCreatedAgainAtItsPathIsANewTable() {
    String lenient = CdfTables.keyed(dir.resolve("recreated"));
    String strict = CdfTables.keyed(dir.resolve("recreated-strict"));
    for (String path : List.of(lenient, strict)) {
      for (int i = 1; i <= 4; i++) {
        sql("INSERT INTO delta.`%s` VALUES (%d, 'old%d')", path, i, i);
      }
    }
    deploy(
        "recreated",
        config(
            lenient,
            "recreated.${table}",
            "start.mode",
            "earliest",
            "on.history.missing",
            "resnapshot"));
    deploy(
        "recreated-strict", config(strict, "recreated-strict.${table}", "start.mode", "earliest"));
    assertThat(versions(read("recreated.recreated", 4))).containsExactly(1L, 2L, 3L, 4L);
    assertThat(versions(read("recreated-strict.recreated-strict", 4)))
        .containsExactly(1L, 2L, 3L, 4L);
    String oldId = tableId(strict);
    for (String name : List.of("recreated", "recreated-strict")) {
      String path = name.equals("recreated") ? lenient : strict;
      cluster.get().rest().awaitStoredVersion(name, path, 5, WAIT);
      cluster.get().rest().stop(name);
      cluster.get().rest().awaitStopped(name, WAIT);
    }

    for (String path : List.of(lenient, strict)) {
      Folders.deleteRecursively(Path.of(path));
      CdfTables.keyed(path);
      for (int i = 1; i <= 4; i++) {
        sql("INSERT INTO delta.`%s` VALUES (%d, 'new%d')", path, 10 + i, i);
      }
    }
    cluster.get().rest().resume("recreated");
    cluster.get().rest().resume("recreated-strict");

    List<ConsumerRecord<byte[], byte[]>> all = read("recreated.recreated", 8);
    assertThat(versions(all.subList(4, 8))).containsExactly(1L, 2L, 3L, 4L);
    assertThat(all.subList(4, 8))
        .extracting(r -> new String(r.value()))
        .allSatisfy(value -> assertThat(value).contains("new"));
    String trace = cluster.get().rest().awaitTaskFailed("recreated-strict", WAIT);
    assertThat(trace)
        .contains("table id " + oldId)
        .contains("table id " + tableId(strict))
        .contains("DELETE the connector's offsets");
  }

  /**
   * A hashed column renamed under column mapping stays hashed, and an excluded one stays out, also
   * after the connector is stopped and resumed at an offset where the schema shows only the new
   * names.
   */
  @Test
  void masksFollowARenamedColumnAcrossARestart() throws Exception {
    String path = dir.resolve("people").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, ssn STRING, notes STRING) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.columnMapping.mode'='name')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, '111-11-1111', 'secret 1')", path);
    deploy(
        "masked",
        config(
            path,
            "masked.${table}",
            "column.mask.hash.list",
            "people:ssn",
            "column.mask.hash.salt",
            "pepper",
            "column.exclude.list",
            "people:notes"));
    assertThat(TopicReader.jsonValue(read("masked.people", 1).get(0).value()).get("ssn").asText())
        .isEqualTo(hmac("111-11-1111"));

    sql("ALTER TABLE delta.`%s` RENAME COLUMN ssn TO tax_id", path);
    sql("ALTER TABLE delta.`%s` RENAME COLUMN notes TO remarks", path);
    sql("INSERT INTO delta.`%s` VALUES (2, '222-22-2222', 'secret 2')", path);
    JsonNode renamed = TopicReader.jsonValue(read("masked.people", 2).get(1).value());
    assertThat(renamed.get("tax_id").asText()).isEqualTo(hmac("222-22-2222"));
    assertThat(renamed.has("remarks")).isFalse();

    long version = spark().sql("DESCRIBE HISTORY delta.`" + path + "`").count();
    cluster.get().rest().awaitStoredVersion("masked", path, version, WAIT);
    cluster.get().rest().stop("masked");
    cluster.get().rest().awaitStopped("masked", WAIT);
    sql("INSERT INTO delta.`%s` VALUES (3, '333-33-3333', 'secret 3')", path);
    cluster.get().rest().resume("masked");

    List<ConsumerRecord<byte[], byte[]>> all = read("masked.people", 3);
    JsonNode afterRestart = TopicReader.jsonValue(all.get(2).value());
    assertThat(afterRestart.get("id").asLong()).isEqualTo(3L);
    assertThat(afterRestart.get("tax_id").asText()).isEqualTo(hmac("333-33-3333"));
    assertThat(afterRestart.has("remarks")).isFalse();
    assertThat(all)
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .noneMatch(v -> v.contains("-22-") || v.contains("-33-") || v.contains("secret"));
  }

  private static String hmac(String text) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec("pepper".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void offsetsOfATableRemovedFromTheConfigurationCanBeReset() {
    String kept = CdfTables.keyed(dir.resolve("kept"));
    String removed = CdfTables.keyed(dir.resolve("removed"));
    sql("INSERT INTO delta.`%s` VALUES (1, 'k')", kept);
    sql("INSERT INTO delta.`%s` VALUES (1, 'r')", removed);
    deploy(
        "shrinking", config(kept + "," + removed, "shrinking.${table}", "start.mode", "earliest"));
    read("shrinking.kept", 1);
    read("shrinking.removed", 1);
    assertThat(cluster.get().rest().offsets("shrinking").get("offsets")).hasSize(2);

    deploy("shrinking", config(kept, "shrinking.${table}", "start.mode", "earliest"));
    cluster.get().rest().stop("shrinking");
    cluster.get().rest().awaitStopped("shrinking", WAIT);
    ConnectRest.Response reset = cluster.get().rest().deleteOffsets("shrinking");

    assertThat(reset.status()).as(reset.body().toString()).isEqualTo(200);
    assertThat(cluster.get().rest().offsets("shrinking").get("offsets")).isEmpty();
    cluster.get().rest().resume("shrinking");
    cluster.get().rest().awaitRunning("shrinking", 1, WAIT);
    assertThat(versions(read("shrinking.kept", 2))).containsExactly(1L, 1L);
  }

  @Test
  void validateReportsEachProblemOnItsKey() {
    String good = CdfTables.keyed(dir.resolve("valid"));
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", good);
    String noCdf = dir.resolve("no-cdf").toString();
    sql("CREATE TABLE delta.`%s` (id BIGINT) USING delta", noCdf);

    assertError(
        ConnectorConfig.forTables(dir.resolve("missing").toString()),
        "delta.table.paths",
        "No Delta table");
    assertError(ConnectorConfig.forTables(noCdf), "delta.table.paths", "not enabled");
    String lateCdf = dir.resolve("late-cdf").toString();
    sql("CREATE TABLE delta.`%s` (id BIGINT) USING delta", lateCdf);
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('delta.enableChangeDataFeed'='true')", lateCdf);
    assertError(
        ConnectorConfig.forTables(lateCdf).startMode("version").with("start.version", "0"),
        "start.version",
        "enabled from version 1 on");
    assertError(
        ConnectorConfig.forTables(good).startMode("version").with("start.version", "9"),
        "start.version",
        "after its latest version 1");
    assertError(
        ConnectorConfig.forTables(good)
            .startMode("timestamp")
            .with("start.timestamp", "next tuesday"),
        "start.timestamp",
        "ISO-8601");
    assertError(
        ConnectorConfig.forTables(good).keyColumns("nope"),
        "key.columns",
        "'nope' is not a column");
    assertError(
        ConnectorConfig.forTables(good).with("start.version", "0"),
        "start.version",
        "only used with start.mode=version");
    assertError(
        ConnectorConfig.forTables(good + "," + good + "/"),
        "topic.template",
        "would both write to topic");

    JsonNode clean = validate(ConnectorConfig.forTables(good));
    assertThat(clean.get("error_count").asInt()).as(clean.toString()).isZero();
  }

  // ---- helpers ----

  private static String tableId(String path) {
    return spark().sql("DESCRIBE DETAIL delta.`" + path + "`").first().getAs("id");
  }

  private static Map<String, String> config(String paths, String topicTemplate, String... extra) {
    return ConnectorConfig.forTables(paths)
        .topicTemplate(topicTemplate)
        .keyColumns("id")
        .pollIntervalMs(200)
        .with(extra)
        .build();
  }

  private static void deploy(String name, Map<String, String> config) {
    cluster.get().rest().deploy(name, config, WAIT);
  }

  /** A latest-mode task resolves "latest" when it starts; give it that moment. */
  private static void awaitFirstPoll(String name) throws InterruptedException {
    cluster.get().rest().awaitRunning(name, 1, WAIT);
    Thread.sleep(1_000);
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(cluster.get().bootstrapServers(), topic, count, WAIT);
  }

  private static List<Long> versions(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream().map(r -> TopicReader.longHeader(r, "_commit_version")).toList();
  }

  private static JsonNode offsetsBody(String path, Map<String, Object> offset) {
    Map<String, Object> entry = Map.of("partition", Map.of("table", path), "offset", offset);
    return JSON.valueToTree(Map.of("offsets", List.of(entry)));
  }

  private static JsonNode validate(ConnectorConfig config) {
    return cluster
        .get()
        .rest()
        .validate("DeltaCdfSourceConnector", config.name("validated").build());
  }

  private static void assertError(ConnectorConfig config, String key, String message) {
    JsonNode response = validate(config);
    Map<String, List<String>> errors = ConnectRest.errorsByKey(response);
    assertThat(errors).as("%s -> %s", config.build(), errors).containsKey(key);
    assertThat(String.join(" | ", errors.get(key))).contains(message);
  }
}
