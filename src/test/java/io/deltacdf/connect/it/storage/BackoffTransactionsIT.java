package io.deltacdf.connect.it.storage;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.it.storage.testing.S3Gate;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.Closing;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.S3Mock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With exactly-once, a table whose store fails in the middle of a version aborts its open
 * transaction instead of holding it through the outage (the producer's transaction timeout would
 * end it and fail the task): the other tables of the task go on, the task stays RUNNING however
 * long the outage lasts, and once the store is back the version is committed whole, in one
 * transaction. The store fails for one data file only (a gate in front of S3Mock answers 503 for
 * it), so the version is cut at a known place.
 */
class BackoffTransactionsIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static S3Mock s3;
  private static S3Gate gate;
  private static KafkaCluster cluster;

  @BeforeAll
  static void start() {
    s3 = S3Mock.start("cdf-eos");
    s3.configure(spark());
    gate = S3Gate.start(s3.endpoint());
    cluster = KafkaCluster.builder().exactlyOnce(true).start();
  }

  @AfterAll
  static void stop() {
    Closing.inOrder(cluster, gate, s3);
  }

  @Test
  void aTableThatBacksOffInTheMiddleOfAVersionAbortsItsTransactionAndTheOtherTablesGoOn()
      throws Exception {
    String waiting = "s3a://cdf-eos/waiting";
    String other = dir.resolve("other").toString();
    for (String path : List.of(waiting, other)) {
      CdfTables.keyed(path);
    }
    spark()
        .range(0, 6_000, 1, 6)
        .selectExpr("id", "'w' AS name")
        .write()
        .format("delta")
        .mode("append")
        .save(waiting); // v1: six files
    List<String> files = addedFiles(waiting, 1);
    assertThat(files).hasSize(6);
    gate.unavailable(fileName(files.get(3)));

    cluster.rest().deploy("backoff", config(waiting + "," + other), WAIT);
    try {
      // The task sends the first three files of v1, then meets the failing fourth; meanwhile the
      // other table of the task gets a version. The outage outlasts the producer's transaction
      // timeout (10 s in these tests).
      List<ConsumerRecord<byte[], byte[]>> sentBeforeOutage =
          TopicReader.readAll(cluster.bootstrapServers(), "backoff.waiting", 3_000, WAIT, false);
      sql("INSERT INTO delta.`%s` VALUES (1, 'o')", other);
      List<ConsumerRecord<byte[], byte[]>> otherInOutage =
          TopicReader.readAll(cluster.bootstrapServers(), "backoff.other", 1, WAIT, true);
      Thread.sleep(12_000);
      int waitingCommittedInOutage =
          TopicReader.readUntilQuiet(
                  cluster.bootstrapServers(), "backoff.waiting", Duration.ofSeconds(1), WAIT, true)
              .size();
      String stateInOutage =
          cluster.rest().status("backoff").path("tasks").path(0).toPrettyString();
      gate.unavailable(null);
      List<ConsumerRecord<byte[], byte[]>> waitingCommitted =
          TopicReader.readAll(cluster.bootstrapServers(), "backoff.waiting", 6_000, WAIT, true);
      List<ConsumerRecord<byte[], byte[]>> all =
          TopicReader.readUntilQuiet(
              cluster.bootstrapServers(), "backoff.waiting", Duration.ofSeconds(2), WAIT, true);

      System.out.printf(
          "BackoffTransactionsIT: %d records of the waiting table sent before the"
              + " outage, %d of them committed in it; %d of the other table committed in it;"
              + " %d committed in all; versions per transaction %s%n",
          sentBeforeOutage.size(),
          waitingCommittedInOutage,
          otherInOutage.size(),
          all.size(),
          TopicReader.commitVersionsPerTransaction(all));
      assertThat(stateInOutage).as("task status in the outage").contains("RUNNING");
      assertThat(otherInOutage).as("the other table's version, committed in the outage").hasSize(1);
      assertThat(waitingCommittedInOutage).as("records of the half-sent v1 committed").isZero();
      assertThat(waitingCommitted).hasSize(6_000);
      assertThat(all).as("v1 once, whole").hasSize(6_000);
      assertThat(
              all.stream()
                  .map(r -> TopicReader.jsonValue(r.value()).path("id").asLong())
                  .distinct()
                  .count())
          .isEqualTo(6_000);
      assertThat(TopicReader.commitVersionsPerTransaction(all)).containsExactly(Set.of(1L));
      assertThat(cluster.rest().status("backoff").path("tasks").path(0).path("state").asText())
          .isEqualTo("RUNNING");
    } finally {
      gate.unavailable(null);
      cluster.rest().delete("backoff");
    }
  }

  private static Map<String, String> config(String paths) {
    Map<String, String> config =
        ConnectorConfig.forTables(paths)
            .topicTemplate("backoff.${table}")
            .pollIntervalMs(200)
            .startMode("earliest")
            .keyColumns("id")
            .with("batch.max.rows", "500")
            .exactlyOnce()
            .build();
    config.put("s3.credentials", "static");
    config.put("s3.access.key.id", S3Mock.ACCESS_KEY);
    config.put("s3.secret.access.key", S3Mock.SECRET_KEY);
    config.put("s3.endpoint", gate.endpoint());
    config.put("s3.path.style.access", "true");
    config.put("s3.region", S3Mock.REGION);
    config.put("storage.insecure.http.allowed", "true");
    // S3A gives up on the 503 within a second, so the connector's own backoff is what waits.
    config.put("hadoop.fs.s3a.retry.limit", "1");
    config.put("hadoop.fs.s3a.retry.interval", "200ms");
    config.put("hadoop.fs.s3a.retry.throttle.limit", "1");
    config.put("hadoop.fs.s3a.retry.throttle.interval", "200ms");
    config.put("hadoop.fs.s3a.attempts.maximum", "0");
    return config;
  }

  /** The data files a commit adds, in the order its log entry lists them. */
  private static List<String> addedFiles(String table, long version) {
    org.apache.hadoop.fs.Path commit =
        new org.apache.hadoop.fs.Path(
            table + "/_delta_log/" + String.format("%020d.json", version));
    List<String> files = new ArrayList<>();
    try (FileSystem fs =
            FileSystem.newInstance(commit.toUri(), spark().sparkContext().hadoopConfiguration());
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(fs.open(commit), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        JsonNode add = JSON.readTree(line).path("add");
        if (!add.isMissingNode()) {
          files.add(add.path("path").asText());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
