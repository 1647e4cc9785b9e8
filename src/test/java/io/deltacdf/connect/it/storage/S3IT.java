package io.deltacdf.connect.it.storage;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.storage.testing.S3Gate;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.Closing;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Ports;
import io.deltacdf.connect.testing.S3Mock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector reading {@code s3a://} tables from an S3 emulator (S3Mock), deployed through the
 * REST API of a worker in its own JVM: the connector's S3A client is built from its connector
 * settings alone, never shared with the S3A client Spark writes with in the test JVM. Spark is the
 * writer and the oracle ({@code table_changes}). Each test has its own table and connector. The
 * gs:// tests need no emulator: they check that a broken GCS setting yields a validate error on
 * that setting, in bounded time.
 */
class S3IT {

  private static final Duration WAIT = Duration.ofSeconds(120);

  /** The value columns each change is described by. */
  private static final String[] COLUMNS = {"id", "name"};

  private static final String PLUGIN = "DeltaCdfSourceConnector";

  /** The longest a validate that fails on storage may take. */
  private static final Duration VALIDATE_BOUND = Duration.ofSeconds(30);

  /** S3A retries bounded (one retry, no SDK retries): reads fail within seconds in an outage. */
  private static final Map<String, String> BOUNDED_RETRIES =
      Map.of(
          "hadoop.fs.s3a.retry.limit", "1",
          "hadoop.fs.s3a.retry.interval", "200ms",
          "hadoop.fs.s3a.attempts.maximum", "0");

  @TempDir static Path dir;
  private static S3Mock s3;
  private static KafkaCluster cluster;

  @BeforeAll
  static void start() {
    s3 = S3Mock.start("cdf-live", "cdf-outage", "cdf-auth", "cdf-revoked");
    s3.configure(spark());
    cluster = KafkaCluster.builder().start();
  }

  @AfterAll
  static void stop() {
    Closing.inOrder(cluster, s3);
  }

  @Test
  void snapshotThenLiveChangesMatchSpark() {
    String path = table("cdf-live", "customers");
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann'), (2, 'bob'), (3, 'cy')", path);
    String topic = "s3-live.customers";
    cluster
        .rest()
        .deploy(
            "s3-live", config(path, "s3-live.${table}", s3.endpoint(), S3Mock.SECRET_KEY), WAIT);
    try {
      List<ConsumerRecord<byte[], byte[]>> snapshot = read(topic, 3);
      assertThat(snapshot)
          .extracting(r -> TopicReader.header(r, "_change_type"))
          .containsOnly("insert");
      assertThat(snapshot)
          .extracting(r -> TopicReader.longHeader(r, "_commit_version"))
          .containsOnly(1L);

      sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
      sql("DELETE FROM delta.`%s` WHERE id = 3", path);
      sql("INSERT INTO delta.`%s` VALUES (4, 'dee')", path);
      List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
      assertThat(expected).hasSize(3 + 2 + 1 + 1 + 1);
      assertThat(ChangeDescriptions.ofRecords(read(topic, expected.size()), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(expected);
    } finally {
      cluster.rest().delete("s3-live");
    }
  }

  @Test
  void tableWhosePathHasASpaceStreams() {
    String path = table("cdf-live", "my lake/spaced");
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann'), (2, 'bob')", path);
    String topic = "s3-spaced.spaced";
    cluster
        .rest()
        .deploy(
            "s3-spaced",
            config(path, "s3-spaced.${table}", s3.endpoint(), S3Mock.SECRET_KEY),
            WAIT);
    try {
      assertThat(read(topic, 2))
          .extracting(r -> TopicReader.header(r, "_change_type"))
          .containsOnly("insert");
      sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
      sql("DELETE FROM delta.`%s` WHERE id = 1", path);
      List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
      assertThat(expected).hasSize(2 + 2 + 1 + 1);
      assertThat(ChangeDescriptions.ofRecords(read(topic, expected.size()), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(expected);
    } finally {
      cluster.rest().delete("s3-spaced");
    }
  }

  /**
   * S3Mock is stopped while Spark keeps writing (its writes fail and are retried until S3Mock is
   * back) and started again 10 s later on the same port and store. With S3A's default retries (a
   * refused connection is retried for ~9 minutes) a read in progress can simply block through the
   * outage and succeed afterwards.
   */
  @Test
  void everyChangeArrivesAfterAnOutageOfTheStore() throws Exception {
    outage("orders", Map.of());
  }

  /**
   * The same outage with S3A retries bounded (one retry, no SDK retries), so the connector's reads
   * fail within seconds during the outage: the task backs off, retries and reopens its feed at the
   * last delivered position.
   */
  @Test
  void everyChangeArrivesAfterAnOutageWithBoundedStoreRetries() throws Exception {
    outage("orders_bounded", BOUNDED_RETRIES);
  }

  /**
   * S3Mock is down while the task restarts, as in a worker restart or rebalance during a storage
   * blip: the task stays RUNNING and backs off while it cannot open its table, and once S3Mock is
   * back it opens it and delivers the versions it had not read yet. A long poll interval keeps the
   * task from reading them before the restart.
   */
  @Test
  void aTaskThatStartsWhileTheStoreIsDownWaitsForItAndCatchesUp() throws Exception {
    String path = table("cdf-outage", "restarted");
    sql("INSERT INTO delta.`%s` VALUES (1, 'r1'), (2, 'r2')", path);
    String name = "s3-restart";
    String topic = "s3-restart.restarted";
    Map<String, String> config =
        config(path, "s3-restart.${table}", s3.endpoint(), S3Mock.SECRET_KEY);
    config.putAll(BOUNDED_RETRIES);
    config.put("poll.interval.ms", "600000");
    cluster.rest().deploy(name, config, WAIT);
    try {
      read(topic, 2);
      sql("INSERT INTO delta.`%s` VALUES (3, 'r3')", path);
      sql("UPDATE delta.`%s` SET name = 'r2+' WHERE id = 2", path);

      s3.stop();
      restartTask(name, 0);
      List<String> states = new ArrayList<>();
      long outageEnd = System.nanoTime() + Duration.ofSeconds(12).toNanos();
      while (System.nanoTime() < outageEnd) {
        states.add(cluster.rest().status(name).path("tasks").path(0).path("state").asText());
        Thread.sleep(500);
      }
      s3.start();
      System.out.printf("S3IT restart while the store is down: task states %s%n", states);

      assertThat(states)
          .as("task states while S3Mock was down")
          .doesNotContain("FAILED")
          .endsWith("RUNNING");
      assertThat(Files.readString(cluster.workerLog()))
          .as("the task met the outage and backed off")
          .containsPattern(
              "(?s)Reading table "
                  + Pattern.quote(path)
                  + " .{0,4000}?retrying from"
                  + " the last position read with backoff");
      List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
      assertThat(expected).hasSize(2 + 1 + 2);
      assertThat(ChangeDescriptions.ofRecords(read(topic, expected.size()), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(expected);
      cluster.rest().awaitRunning(name, 1, WAIT);
    } finally {
      if (!s3.isRunning()) {
        s3.start();
      }
      cluster.rest().delete(name);
    }
  }

  private static void outage(String tableName, Map<String, String> extraConfig) throws Exception {
    String path = table("cdf-outage", tableName);
    sql("INSERT INTO delta.`%s` VALUES (1, 'o1'), (2, 'o2'), (3, 'o3')", path);
    String name = "s3-outage-" + tableName;
    String topic = "s3-outage." + tableName;
    Map<String, String> config =
        config(path, "s3-outage.${table}", s3.endpoint(), S3Mock.SECRET_KEY);
    config.putAll(extraConfig);
    cluster.rest().deploy(name, config, WAIT);
    Writer writer = new Writer(path, 20);
    Thread writing = new Thread(writer, "delta-writer");
    try {
      read(topic, 3);
      writing.start();
      writer.awaitCommitted(6);

      long outageStart = System.nanoTime();
      s3.stop();
      Thread.sleep(5_000);
      int beforeRestart =
          TopicReader.readUntilQuiet(
                  cluster.bootstrapServers(), topic, Duration.ofSeconds(1), WAIT, false)
              .size();
      String taskStateInOutage =
          cluster.rest().status(name).path("tasks").path(0).path("state").asText();
      Thread.sleep(Math.max(0, 10_000 - millis(outageStart, System.nanoTime())));
      s3.start();
      long restarted = System.nanoTime();
      // The first record after the restart: a version read once S3Mock is back.
      TopicReader.readAll(cluster.bootstrapServers(), topic, beforeRestart + 1, WAIT, false);
      long firstAfterRestart = System.nanoTime();

      writing.join(Duration.ofMinutes(4).toMillis());
      assertThat(writing.isAlive()).as("writer still running; %s", writer).isFalse();
      assertThat(writer.error).as("writer failed; %s", writer).isNull();
      long writerDone = System.nanoTime();

      List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
      TopicReader.readAll(cluster.bootstrapServers(), topic, expected.size(), WAIT, false);
      long caughtUp = System.nanoTime();
      List<ConsumerRecord<byte[], byte[]>> all =
          TopicReader.readUntilQuiet(
              cluster.bootstrapServers(), topic, Duration.ofSeconds(3), WAIT, false);

      List<String> delivered = ChangeDescriptions.ofRecords(all, COLUMNS);
      Set<String> distinct = new HashSet<>(delivered);
      System.out.printf(
          "S3IT outage %s: %d changes expected, %d records when S3Mock went down,"
              + " %d in all, %d duplicates; task %s during the outage; outage %d ms; first"
              + " record %d ms after the restart; writer done %d ms after the restart, topic"
              + " complete %d ms later; writer: %s%n",
          tableName,
          expected.size(),
          beforeRestart,
          all.size(),
          delivered.size() - distinct.size(),
          taskStateInOutage,
          millis(outageStart, restarted),
          millis(restarted, firstAfterRestart),
          millis(restarted, writerDone),
          millis(writerDone, caughtUp),
          writer);
      assertThat(taskStateInOutage).isEqualTo("RUNNING");
      assertThat(distinct).containsExactlyInAnyOrderElementsOf(new HashSet<>(expected));
      assertThat(delivered)
          .as("no change delivered twice")
          .containsExactlyInAnyOrderElementsOf(expected);
      cluster.rest().awaitRunning(name, 1, WAIT);
    } finally {
      writer.stop = true;
      writing.join(Duration.ofMinutes(1).toMillis());
      if (!s3.isRunning()) {
        s3.start();
      }
      cluster.rest().delete(name);
    }
  }

  /**
   * S3Mock checks no signatures, so the wrong secret goes to a gate in front of it that answers
   * every request as S3 answers one signed with a wrong secret (403 SignatureDoesNotMatch). The
   * bucket is one this worker has never read.
   */
  @Test
  void validateReportsAWrongSecretOnTheSecretSettingWithoutTheSecret() {
    String wrongSecret = "wrong-secret-" + UUID.randomUUID();
    try (S3Gate gate = S3Gate.start(s3.endpoint())) {
      gate.deny(true);
      long start = System.nanoTime();
      JsonNode denied =
          validate(config("s3a://cdf-never-read/accounts", "auth", gate.endpoint(), wrongSecret));
      long elapsed = millis(start, System.nanoTime());
      Map<String, List<String>> errors = ConnectRest.errorsByKey(denied);
      System.out.printf(
          "S3IT wrong secret: validate took %d ms, %d request(s), errors %s%n",
          elapsed, gate.requests(), errors);
      SoftAssertions softly = new SoftAssertions();
      softly.assertThat(gate.requests()).as("requests that reached the store").isPositive();
      softly.assertThat(errors).as("errors").containsOnlyKeys("s3.secret.access.key");
      softly
          .assertThat(String.join(" | ", errors.getOrDefault("s3.secret.access.key", List.of())))
          .containsIgnoringCase("denied");
      softly.assertThat(denied.toString()).doesNotContain(wrongSecret);
      softly.assertThat(elapsed).as("validate time (ms)").isLessThan(VALIDATE_BOUND.toMillis());
      softly.assertAll();
    }
  }

  /**
   * One table validated with the right credentials, then with a wrong secret (through the denying
   * gate: another endpoint), then with the right ones again, all in one worker: each answer must
   * follow the settings it was given, not a file system cached by an earlier one.
   */
  @Test
  void validateUsesTheSettingsItIsGivenNotThoseOfAnEarlierCall() {
    String path = table("cdf-auth", "accounts");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path);
    String wrongSecret = "wrong-secret-" + UUID.randomUUID();
    try (S3Gate gate = S3Gate.start(s3.endpoint())) {
      gate.deny(true);
      SoftAssertions softly = new SoftAssertions();
      JsonNode before = validate(config(path, "auth", s3.endpoint(), S3Mock.SECRET_KEY));
      softly.assertThat(ConnectRest.errorsByKey(before)).as("right credentials first").isEmpty();

      JsonNode denied = validate(config(path, "auth", gate.endpoint(), wrongSecret));
      softly
          .assertThat(gate.requests())
          .as("requests that reached the endpoint of the wrong-secret config")
          .isPositive();
      softly
          .assertThat(ConnectRest.errorsByKey(denied))
          .as("wrong secret next")
          .containsKey("s3.secret.access.key");

      JsonNode after = validate(config(path, "auth", s3.endpoint(), S3Mock.SECRET_KEY));
      softly
          .assertThat(ConnectRest.errorsByKey(after))
          .as("right credentials again, without a worker restart")
          .isEmpty();
      softly.assertAll();
    }
  }

  /**
   * The store starts refusing a running task's credentials (revoked keys): the task fails instead
   * of retrying forever, without the secret in its trace; once the store accepts them again, a task
   * restart resumes from the stored offset.
   */
  @Test
  void aTaskWhoseCredentialsAreRevokedFailsThenResumesAfterARestart() throws Exception {
    String path = table("cdf-revoked", "ledger");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path);
    String secret = "revoked-secret-" + UUID.randomUUID();
    String topic = "revoked.ledger";
    try (S3Gate gate = S3Gate.start(s3.endpoint())) {
      cluster
          .rest()
          .deploy("s3-revoked", config(path, "revoked.${table}", gate.endpoint(), secret), WAIT);
      try {
        read(topic, 2);
        long start = System.nanoTime();
        gate.deny(true);
        sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path);
        String trace = cluster.rest().awaitTaskFailed("s3-revoked", WAIT);
        System.out.printf(
            "S3IT revoked credentials: task failed after %d ms: %s%n",
            millis(start, System.nanoTime()), trace.lines().findFirst().orElse(""));
        assertThat(trace).containsIgnoringCase("denied").doesNotContain(secret);
        assertThat(cluster.rest().status("s3-revoked").toString()).doesNotContain(secret);

        gate.deny(false);
        restartTask("s3-revoked", 0);
        awaitTaskRunning("s3-revoked");
        assertThat(ChangeDescriptions.ofRecords(read(topic, 3), COLUMNS))
            .containsExactlyInAnyOrderElementsOf(ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS));
      } finally {
        cluster.rest().delete("s3-revoked");
      }
    }
  }

  /** An S3 endpoint nobody listens on: a typo in s3.endpoint, or the store is down. */
  @Test
  void validateReportsAClosedS3EndpointOnTheEndpointSetting() {
    String endpoint = "http://127.0.0.1:" + Ports.free();
    assertBoundedError(
        config("s3a://cdf-live/customers", "closed", endpoint, S3Mock.SECRET_KEY), "s3.endpoint");
  }

  @Test
  void validateReportsAMissingGcsKeyfileOnTheKeyfileSetting() {
    Map<String, String> config = baseConfig("gs://cdf-gcs/orders", "gcs");
    config.put("gcs.auth.type", "service-account-keyfile");
    config.put("gcs.keyfile.path", dir.resolve("no-such-dir/key.json").toString());
    assertBoundedError(config, "gcs.keyfile.path");
  }

  /**
   * Authentication is turned off (raw Hadoop pass-through), so the only thing that can fail is the
   * connection to the endpoint.
   */
  @Test
  void validateReportsAClosedGcsEndpointOnTheEndpointSetting() {
    Map<String, String> config = baseConfig("gs://cdf-gcs/orders", "gcs");
    config.put("gcs.endpoint", "http://127.0.0.1:" + Ports.free() + "/");
    config.put("hadoop.fs.gs.auth.type", "UNAUTHENTICATED");
    assertBoundedError(config, "gcs.endpoint");
  }

  // ---- helpers ----

  private static String table(String bucket, String name) {
    String path = "s3a://" + bucket + "/" + name;
    return CdfTables.keyed(path, "delta.enableInCommitTimestamps", "true");
  }

  private static Map<String, String> baseConfig(String paths, String topicPrefix) {
    return ConnectorConfig.forTables(paths)
        .topicTemplate(topicPrefix + ".${table}")
        .keyColumns("id")
        .pollIntervalMs(200)
        // S3Mock and the closed test endpoints are plain HTTP.
        .with("storage.insecure.http.allowed", "true")
        .build();
  }

  /** Static keys, the endpoint, path-style access and the region: the connector's s3.* keys. */
  private static Map<String, String> config(
      String paths, String topicTemplate, String endpoint, String secret) {
    Map<String, String> config = baseConfig(paths, "unused");
    config.put("topic.template", topicTemplate);
    config.put("s3.credentials", "static");
    config.put("s3.access.key.id", S3Mock.ACCESS_KEY);
    config.put("s3.secret.access.key", secret);
    config.put("s3.endpoint", endpoint);
    config.put("s3.path.style.access", "true");
    config.put("s3.region", S3Mock.REGION);
    return config;
  }

  /** POST /connectors/{name}/tasks/{task}/restart. */
  private static void restartTask(String name, int task) {
    ConnectRest.Response response =
        cluster.rest().post("/connectors/" + name + "/tasks/" + task + "/restart");
    assertThat(response.ok()).as(response.toString()).isTrue();
  }

  /**
   * Waits for task 0 to be RUNNING after a restart: unlike ConnectRest.awaitRunning it does not
   * stop at the FAILED state the status topic reports until the restarted task is up.
   */
  private static void awaitTaskRunning(String name) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    JsonNode status = cluster.rest().status(name);
    while (!"RUNNING".equals(status.path("tasks").path(0).path("state").asText())) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Task 0 of " + name + " not RUNNING: " + status.toPrettyString());
      }
      Thread.sleep(200);
      status = cluster.rest().status(name);
    }
  }

  private static JsonNode validate(Map<String, String> config) {
    Map<String, String> named = new HashMap<>(config);
    named.put("name", "validated");
    return cluster.rest().validate(PLUGIN, named);
  }

  private static void assertBoundedError(Map<String, String> config, String key) {
    long start = System.nanoTime();
    JsonNode response;
    try {
      response = validate(config);
    } catch (AssertionError e) {
      throw new AssertionError(
          "validate failed after " + millis(start, System.nanoTime()) + " ms: " + e.getMessage(),
          e);
    }
    long elapsed = millis(start, System.nanoTime());
    Map<String, List<String>> errors = ConnectRest.errorsByKey(response);
    System.out.printf("S3IT %s: validate took %d ms, errors %s%n", key, elapsed, errors);
    SoftAssertions softly = new SoftAssertions();
    softly.assertThat(errors).as("errors").containsKey(key);
    softly.assertThat(elapsed).as("validate time (ms)").isLessThan(VALIDATE_BOUND.toMillis());
    softly.assertAll();
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(cluster.bootstrapServers(), topic, count, WAIT);
  }

  private static long millis(long fromNanos, long toNanos) {
    return (toNanos - fromNanos) / 1_000_000;
  }

  /**
   * Runs {@code statements} inserts, updates and deletes one after the other; a statement that
   * fails (S3Mock is down) is retried every second until it succeeds.
   */
  private static final class Writer implements Runnable {

    private final String path;
    private final int statements;
    final AtomicInteger committed = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    volatile boolean stop;
    volatile Throwable error;
    private volatile String lastFailure = "";

    Writer(String path, int statements) {
      this.path = path;
      this.statements = statements;
    }

    @Override
    public void run() {
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      try {
        for (int i = 0; i < statements && !stop; i++) {
          String statement = statement(i);
          while (true) {
            try {
              sql(statement);
              committed.incrementAndGet();
              break;
            } catch (Exception e) { // Spark rethrows IOExceptions undeclared
              failures.incrementAndGet();
              String first = e.toString().lines().findFirst().orElse("");
              lastFailure = first.substring(0, Math.min(first.length(), 160));
              if (System.nanoTime() > deadline || stop) {
                throw e;
              }
              Thread.sleep(1_000);
            }
          }
          Thread.sleep(200);
        }
      } catch (Throwable e) {
        error = e;
      }
    }

    /** Every third statement updates, every fifth deletes, the rest insert. */
    private String statement(int i) {
      long id = 10 + i;
      if (i % 5 == 4) {
        return String.format("DELETE FROM delta.`%s` WHERE id = %d", path, id - 3);
      }
      if (i % 3 == 2) {
        return String.format(
            "UPDATE delta.`%s` SET name = concat(name, '+') WHERE id = %d", path, id - 1);
      }
      return String.format("INSERT INTO delta.`%s` VALUES (%d, 'o%d')", path, id, id);
    }

    void awaitCommitted(int count) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (committed.get() < count && error == null) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("writer committed only " + this);
        }
        Thread.sleep(100);
      }
    }

    @Override
    public String toString() {
      return committed.get()
          + " statements committed, "
          + failures.get()
          + " failed attempts (last: "
          + lastFailure
          + ")";
    }
  }
}
