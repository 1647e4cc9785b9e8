package io.deltacdf.connect.it.storage;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.storage.testing.Azurite;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.Closing;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Ports;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables on ADLS Gen2 ({@code abfs://}), emulated by Azurite, written by Spark and streamed by the
 * connector deployed through the REST API with the azure.* settings (shared-key auth).
 *
 * <p>The worker runs in its own JVM: Hadoop caches file systems per {@code container@account} and
 * JVM, not per settings, so an in-process worker would read through Spark's cached file system and
 * its credentials instead of the connector's.
 */
class AdlsGen2IT {

  private static final Duration WAIT = Duration.ofSeconds(120);

  /** The value columns each change is described by. */
  private static final String[] COLUMNS = {"id", "name", "amount"};

  private static final Duration OUTAGE = Duration.ofSeconds(10);

  private static Azurite azurite;
  private static KafkaCluster cluster;
  // Unique per run: Spark's JVM caches file systems by container@account (see Azurite).
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  @BeforeAll
  static void start() {
    azurite = Azurite.launch();
    azurite.configure(spark());
    cluster = KafkaCluster.builder().start();
  }

  @AfterAll
  static void stop() {
    Closing.inOrder(cluster, azurite);
  }

  @Test
  void snapshotThenLiveChangesMatchSparkTableChanges() {
    String path = table("lake" + RUN, "customers");
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cy', 30)", path);
    cluster.rest().deploy("adls-live", config(path, "adls-live.${table}"), WAIT);

    List<ConsumerRecord<byte[], byte[]>> snapshot = read("adls-live.customers", 3);
    assertThat(snapshot)
        .extracting(r -> TopicReader.header(r, "_change_type"))
        .containsOnly("insert");
    assertThat(ChangeDescriptions.ofRecords(snapshot, COLUMNS))
        .containsExactlyInAnyOrderElementsOf(ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS));

    sql("UPDATE delta.`%s` SET name = 'bobby', amount = amount + 1 WHERE id = 2", path);
    sql("DELETE FROM delta.`%s` WHERE id = 3", path);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT 1 AS id, 'anna' AS name, 11 AS amount"
            + " UNION ALL SELECT 4, 'dee', 40) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        path);
    List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
    assertThat(expected).hasSize(3 + 2 + 1 + 1 + 3);
    List<ConsumerRecord<byte[], byte[]>> all = read("adls-live.customers", expected.size());
    assertThat(ChangeDescriptions.ofRecords(all, COLUMNS))
        .containsExactlyInAnyOrderElementsOf(expected);
    // In-commit timestamps: the commit time is Spark's, so the producer stamps records after it.
    assertThat(all)
        .allSatisfy(
            r ->
                assertThat(r.timestamp())
                    .isGreaterThanOrEqualTo(TopicReader.longHeader(r, "_commit_timestamp")));
    cluster.rest().delete("adls-live");
  }

  @Test
  void tableWhosePathHasASpaceStreams() {
    String path = table("lake" + RUN, "my lake/spaced");
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann', 10), (2, 'bob', 20)", path);
    cluster.rest().deploy("adls-spaced", config(path, "adls-spaced.${table}"), WAIT);
    assertThat(read("adls-spaced.spaced", 2))
        .extracting(r -> TopicReader.header(r, "_change_type"))
        .containsOnly("insert");

    sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
    sql("DELETE FROM delta.`%s` WHERE id = 1", path);
    List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
    assertThat(expected).hasSize(2 + 2 + 1 + 1);
    assertThat(ChangeDescriptions.ofRecords(read("adls-spaced.spaced", expected.size()), COLUMNS))
        .containsExactlyInAnyOrderElementsOf(expected);
    cluster.rest().delete("adls-spaced");
  }

  @Test
  void accountKeyStaysOutOfStatusAndErrors() {
    String container = "keys" + RUN;
    String path = table(container, "secrets");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a', 1)", path);
    cluster.rest().deploy("adls-keys", config(path, "adls-keys.${table}"), WAIT);
    read("adls-keys.secrets", 1);
    String key = azurite.accountKey();

    // What the worker shows of a running connector's config (reported, not all asserted).
    Map<String, Boolean> shown = new LinkedHashMap<>();
    for (String endpoint :
        List.of(
            "/connectors/adls-keys",
            "/connectors/adls-keys/config",
            "/connectors/adls-keys/tasks",
            "/connectors/adls-keys/status",
            "/connectors?expand=info&expand=status",
            "/connectors/adls-keys/offsets")) {
      ConnectRest.Response response = cluster.rest().get(endpoint);
      assertThat(response.ok()).as("%s: %s", endpoint, response).isTrue();
      shown.put(endpoint, response.body().toString().contains(key));
    }
    System.out.println(
        "ADLS account key visible in REST responses of a running connector: " + shown);
    assertThat(shown.get("/connectors/adls-keys/status")).isFalse();
    assertThat(cluster.rest().status("adls-keys").toString()).doesNotContain(key);

    // A wrong (well-formed) key, on a container this worker never opened.
    String otherContainer = "denied" + RUN;
    String deniedPath = table(otherContainer, "secrets");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a', 1)", deniedPath);
    String wrongKey = randomKey();
    Map<String, String> wrong = config(deniedPath, "adls-denied.${table}");
    wrong.put("azure.account.key", wrongKey);

    JsonNode validated = cluster.rest().validate("DeltaCdfSourceConnector", named(wrong, "v1"));
    Map<String, List<String>> errors = ConnectRest.errorsByKey(validated);
    System.out.println("validate with a wrong azure.account.key: " + errors);
    assertThat(errors).as(validated.toString()).containsKey("azure.account.key");
    assertThat(validated.toString()).doesNotContain(wrongKey).doesNotContain(key);
    assertThat(passwordValueShown(validated, "azure.account.key")).isEqualTo("[hidden]");

    ConnectRest.Response rejected = cluster.rest().tryPutConfig("adls-denied", wrong);
    System.out.println("PUT /connectors/adls-denied/config with a wrong key: " + rejected);
    assertThat(rejected.status()).isEqualTo(400);
    assertThat(rejected.body().toString()).doesNotContain(wrongKey).doesNotContain(key);

    // A key that is not even base64.
    Map<String, String> malformed = config(deniedPath, "adls-malformed.${table}");
    malformed.put("azure.account.key", "not-a-key!");
    JsonNode badKey = cluster.rest().validate("DeltaCdfSourceConnector", named(malformed, "v2"));
    System.out.println(
        "validate with a malformed azure.account.key: " + ConnectRest.errorsByKey(badKey));
    assertThat(ConnectRest.errorsByKey(badKey)).containsKey("azure.account.key");
    assertThat(badKey.toString()).doesNotContain("not-a-key!").doesNotContain(key);

    // The key rotated on the store while the task runs: the task fails, and says why.
    String rotated = randomKey();
    try {
      azurite.rotateKey(rotated);
      String trace = cluster.rest().awaitTaskFailed("adls-keys", WAIT);
      System.out.println("task trace after the account key was rotated:\n" + trace);
      assertThat(trace).contains("denied").doesNotContain(key).doesNotContain(rotated);
      JsonNode status = cluster.rest().status("adls-keys");
      assertThat(status.toString()).doesNotContain(key).doesNotContain(rotated);
      System.out.println(
          "task trace names azure.account.key: " + trace.contains("azure.account.key"));
    } finally {
      azurite.rotateKey(Azurite.ACCOUNT_KEY);
      cluster.rest().delete("adls-keys");
    }
  }

  @Test
  void sasTokenReadsAndARefusedOneIsNeverEchoed() {
    String path = table("sas" + RUN, "events");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a', 1), (2, 'b', 2)", path);
    Instant expiry = Instant.now().plus(Duration.ofHours(2));
    String token = Azurite.accountSas("rl", expiry, Azurite.ACCOUNT_KEY);
    cluster.rest().deploy("adls-sas", sasConfig(path, "adls-sas.${table}", token), WAIT);
    try {
      assertThat(ChangeDescriptions.ofRecords(read("adls-sas.events", 2), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS));
      assertThat(cluster.rest().status("adls-sas").toString()).doesNotContain(signature(token));

      // Signed with another key: the store refuses it. On a container the worker never opened.
      String deniedPath = table("sasdenied" + RUN, "events");
      sql("INSERT INTO delta.`%s` VALUES (1, 'a', 1)", deniedPath);
      String forged = Azurite.accountSas("rl", expiry, randomKey());
      JsonNode validated =
          cluster
              .rest()
              .validate(
                  "DeltaCdfSourceConnector",
                  named(sasConfig(deniedPath, "adls-sas-denied.${table}", forged), "v4"));
      Map<String, List<String>> errors = ConnectRest.errorsByKey(validated);
      System.out.println("validate with a refused azure.sas.token: " + errors);
      assertThat(errors).as(validated.toString()).containsKey("azure.sas.token");
      String text = validated.toString();
      for (String secret : List.of(forged, token)) {
        String sig = signature(secret);
        assertThat(text)
            .doesNotContain(secret)
            .doesNotContain(sig)
            .doesNotContain(URLDecoder.decode(sig, StandardCharsets.UTF_8));
      }
      assertThat(passwordValueShown(validated, "azure.sas.token")).isEqualTo("[hidden]");
    } finally {
      cluster.rest().delete("adls-sas");
    }
  }

  /**
   * Hadoop caches file systems per JVM by scheme, {@code container@account} and user, not by
   * settings: the first connector (or validation) in a worker to open a container fixes the
   * credentials every later one uses there, whatever its own azure.* settings say. A wrong key then
   * passes where a right one is cached, and a right key fails where a wrong one is.
   */
  @Test
  void eachConnectorUsesItsOwnCredentials() {
    // A wrong key on a container a running connector reads with the right one.
    String path = table("shared" + RUN, "items");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a', 1)", path);
    cluster.rest().deploy("adls-shared", config(path, "adls-shared.${table}"), WAIT);
    try {
      read("adls-shared.items", 1);
      Map<String, String> wrong = config(path, "adls-shared-wrong.${table}");
      wrong.put("azure.account.key", randomKey());
      JsonNode validated = cluster.rest().validate("DeltaCdfSourceConnector", named(wrong, "v5"));
      System.out.println(
          "wrong key where the worker has the right one cached: "
              + ConnectRest.errorsByKey(validated));
      assertThat(ConnectRest.errorsByKey(validated))
          .as(validated.toString())
          .containsKey("azure.account.key");
    } finally {
      cluster.rest().delete("adls-shared");
    }

    // The right key after a wrong one was tried first on a container.
    String fresh = table("poisoned" + RUN, "items");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a', 1)", fresh);
    Map<String, String> wrongFirst = config(fresh, "adls-poisoned.${table}");
    wrongFirst.put("azure.account.key", randomKey());
    assertThat(
            ConnectRest.errorsByKey(
                cluster.rest().validate("DeltaCdfSourceConnector", named(wrongFirst, "v6"))))
        .containsKey("azure.account.key");
    JsonNode corrected =
        cluster
            .rest()
            .validate(
                "DeltaCdfSourceConnector", named(config(fresh, "adls-poisoned.${table}"), "v7"));
    System.out.println(
        "right key after a wrong one on the same container: " + ConnectRest.errorsByKey(corrected));
    assertThat(corrected.get("error_count").asInt()).as(corrected.toString()).isZero();
  }

  /**
   * Azurite down for 10 s while the task streams: ABFS retries each request itself (30 attempts,
   * backoff up to 25 s by default), so the task just waits inside one Hadoop call.
   */
  /**
   * Entra ID client credentials (the auth Fabric needs) against an authority that refuses the
   * connection: validate() answers with an error on the Azure settings. On a worker that loaded the
   * plugin through isolation it once answered HTTP 500, NoClassDefFoundError of commons-lang3,
   * which hadoop-azure calls and the plugin did not ship.
   */
  @Test
  void validateWithClientCredentialsAnswersOnTheAzureSettings() {
    Map<String, String> entra = config(table("entra" + RUN, "orders"), "adls-entra.${table}");
    entra.remove("azure.account.key");
    entra.put("azure.auth.type", "client-credentials");
    entra.put("azure.oauth.client.id", "app");
    entra.put("azure.oauth.client.secret", "app-secret");
    entra.put("azure.oauth.tenant.id", "tenant");
    entra.put("azure.oauth.authority", "https://127.0.0.1:" + Ports.free());
    entra.put("hadoop.fs.azure.oauth.token.fetch.retry.max.retries", "0");

    JsonNode validated = cluster.rest().validate("DeltaCdfSourceConnector", named(entra, "v7"));
    Map<String, List<String>> errors = ConnectRest.errorsByKey(validated);
    System.out.println("validate with unreachable Entra ID client credentials: " + errors);
    assertThat(errors.keySet()).as(validated.toString()).anyMatch(k -> k.startsWith("azure."));
    assertThat(validated.toString()).doesNotContain("app-secret");
  }

  @Test
  void outageWithinHadoopRetriesLosesNoChange() throws InterruptedException {
    outage("adls-outage", Map.of());
  }

  /**
   * The same outage with ABFS retrying once: the failure reaches the connector, whose own
   * transient-error handling (back off, then reopen the feed at the last delivered row) must carry
   * it through.
   */
  @Test
  void outageBeyondHadoopRetriesLosesNoChange() throws InterruptedException {
    outage(
        "adls-outage-fast",
        Map.of(
            "hadoop.fs.azure.io.retry.max.retries", "1",
            "hadoop.fs.azure.io.retry.min.backoff.interval", "100",
            "hadoop.fs.azure.io.retry.backoff.interval", "100",
            "hadoop.fs.azure.io.retry.max.backoff.interval", "200"));
  }

  /**
   * Streams a table receiving writes, stops Azurite for {@link #OUTAGE} between two writes, starts
   * it again on the same port and data, writes more, and compares the topic with Spark's
   * table_changes: every change, and each once unless the task had to be restarted.
   */
  private static void outage(String name, Map<String, String> extra) throws InterruptedException {
    String path = table(name.replace("-", "") + RUN, "orders");
    String topic = name + ".orders";
    spark()
        .range(0, 2_000, 1, 1)
        .selectExpr("id", "concat('n', id) AS name", "id AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
    Map<String, String> config = config(path, name + ".${table}");
    config.put("start.mode", "earliest");
    config.put("batch.max.rows", "100");
    config.putAll(extra);
    cluster.rest().deploy(name, config, WAIT);

    for (int round = 1; round <= 2; round++) {
      writeRound(path, round);
    }
    // A larger version, so the task is more likely busy reading when storage goes away.
    spark()
        .range(10_000, 15_000, 1, 1)
        .selectExpr("id", "concat('n', id) AS name", "id AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path);

    long stopStart = System.nanoTime();
    azurite.stop();
    long stoppedMs = (System.nanoTime() - stopStart) / 1_000_000;
    Set<String> statesDuringOutage = new LinkedHashSet<>();
    long down = System.nanoTime();
    while (System.nanoTime() - down < OUTAGE.toNanos()) {
      statesDuringOutage.add(taskStates(name));
      Thread.sleep(500);
    }
    azurite.start();
    long restarted = System.nanoTime();
    System.out.printf(
        "%s: Azurite stop took %d ms (%s), down %d s; task states while down: %s%n",
        name,
        stoppedMs,
        azurite.lastStopKilled() ? "SIGKILL" : "SIGTERM",
        OUTAGE.toSeconds(),
        statesDuringOutage);

    for (int round = 3; round <= 4; round++) {
      writeRound(path, round);
    }
    List<String> expected = ChangeDescriptions.ofSparkFeed(path, 0, COLUMNS);

    // Recovery: RUNNING again by itself, or FAILED and restarted through the REST API.
    List<String> statesAfter = new ArrayList<>();
    boolean restartedTask = false;
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      String states = taskStates(name);
      if (statesAfter.isEmpty() || !statesAfter.get(statesAfter.size() - 1).equals(states)) {
        statesAfter.add(states);
      }
      if (states.contains("FAILED") && !restartedTask) {
        System.out.println(
            name + ": task FAILED, status:\n" + cluster.rest().status(name).toPrettyString());
        restartFailed(name);
        restartedTask = true;
      }
      List<ConsumerRecord<byte[], byte[]>> records =
          TopicReader.readAll(
              cluster.bootstrapServers(), topic, expected.size(), Duration.ofSeconds(2), false);
      if (records.size() >= expected.size()) {
        break;
      }
    }
    long caughtUpS = (System.nanoTime() - restarted) / 1_000_000_000;
    List<String> actual =
        ChangeDescriptions.ofRecords(
            TopicReader.readUntilQuiet(
                cluster.bootstrapServers(), topic, Duration.ofSeconds(5), WAIT, false),
            COLUMNS);
    Set<String> distinct = new HashSet<>(actual);
    System.out.printf(
        "%s: states after restart %s, task restarted by the test: %s, caught up"
            + " %d s after Azurite restarted; %d records, %d distinct, %d expected (Spark)%n",
        name,
        statesAfter,
        restartedTask,
        caughtUpS,
        actual.size(),
        distinct.size(),
        expected.size());

    assertThat(new HashSet<>(expected)).hasSize(expected.size());
    assertThat(distinct)
        .as("every change of Spark's table_changes, nothing else")
        .containsExactlyInAnyOrderElementsOf(expected);
    if (!restartedTask) {
      assertThat(actual).as("no task restart, so no change twice").hasSize(expected.size());
    }
    cluster.rest().awaitRunning(name, 1, WAIT);
    cluster.rest().delete(name);
  }

  // ---- helpers ----

  /** One DML round on {@code orders}: new rows, an update and a delete, three versions. */
  private static void writeRound(String path, int round) {
    long from = 2_000L + round * 1_000L;
    spark()
        .range(from, from + 500, 1, 1)
        .selectExpr("id", "concat('n', id) AS name", "id AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
    sql("UPDATE delta.`%s` SET amount = amount + %d WHERE id %% 7 = %d", path, round, round);
    sql("DELETE FROM delta.`%s` WHERE id %% 11 = %d", path, round);
  }

  /** A CDF table with in-commit timestamps at abfs://container@.../name. */
  private static String table(String container, String name) {
    String path = Azurite.uri(container, "tables/" + name);
    return CdfTables.create(
        path, "id BIGINT, name STRING, amount BIGINT", "delta.enableInCommitTimestamps", "true");
  }

  private static Map<String, String> config(String paths, String topicTemplate) {
    return ConnectorConfig.forTables(paths)
        .withAll(azurite.connectorSettings())
        .topicTemplate(topicTemplate)
        .keyColumns("id")
        .pollIntervalMs(200)
        .build();
  }

  private static Map<String, String> sasConfig(String path, String topicTemplate, String token) {
    Map<String, String> config = config(path, topicTemplate);
    config.remove("azure.account.key");
    config.put("azure.auth.type", "sas");
    config.put("azure.sas.token", token);
    return config;
  }

  /** The sig= value of a SAS token (URL-encoded, as in the token). */
  private static String signature(String token) {
    return token.substring(token.indexOf("&sig=") + "&sig=".length());
  }

  private static Map<String, String> named(Map<String, String> config, String name) {
    Map<String, String> named = new HashMap<>(config);
    named.put("name", name);
    return named;
  }

  private static void restartFailed(String name) {
    ConnectRest.Response response =
        cluster.rest().post("/connectors/" + name + "/restart?includeTasks=true&onlyFailed=true");
    assertThat(response.ok()).as(response.toString()).isTrue();
  }

  /** "connector/task0" states, e.g. "RUNNING/RUNNING"; "?" when the worker does not answer. */
  private static String taskStates(String name) {
    try {
      JsonNode status = cluster.rest().status(name);
      StringBuilder states = new StringBuilder(status.path("connector").path("state").asText());
      for (JsonNode task : status.path("tasks")) {
        states.append('/').append(task.path("state").asText());
      }
      return states.toString();
    } catch (RuntimeException | AssertionError e) {
      return "?";
    }
  }

  private static String passwordValueShown(JsonNode validated, String key) {
    for (JsonNode config : validated.path("configs")) {
      if (key.equals(config.path("value").path("name").asText())) {
        return config.path("value").path("value").asText();
      }
    }
    throw new AssertionError("No " + key + " in " + validated);
  }

  private static String randomKey() {
    byte[] bytes = new byte[64];
    new SecureRandom().nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(cluster.bootstrapServers(), topic, count, WAIT);
  }
}
