package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.task.TableMetrics;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import javax.management.JMException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bounded runs (end.version) and rate limits (max.rows.per.second) on a real broker, which creates
 * no topics, and a real worker. The rate limit's size is {@code -Drate.limit.rows} (CI: 2,000 rows
 * at 200 a second, 10 s).
 */
class BoundedRunsIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final int RATE_ROWS = Integer.getInteger("rate.limit.rows", 2_000);
  private static final int RATE_PER_SECOND = 200;

  @TempDir static Path dir;
  private static KafkaCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = KafkaCluster.builder().start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aBoundedRunStopsExactlyAtItsVersionAndSaysItIsDone() throws Exception {
    String path = table("bounded");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path); // v1
    sql("UPDATE delta.`%s` SET name = 'B' WHERE id = 2", path); // v2
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('purpose'='replay')", path); // v3: no rows
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path); // v4: after the end
    cluster
        .rest()
        .deploy(
            "bounded",
            config(
                path,
                "start.mode",
                "earliest",
                "end.version",
                "3",
                "notification.enabled.channels",
                "sink",
                "notification.sink.topic.name",
                "bounded-notices"),
            WAIT);

    awaitMetric("bounded", path, "EndReached", true);
    assertThat(metric("bounded", path, "EndVersion")).isEqualTo(3L);
    assertThat(metric("bounded", path, "VersionsFromCdf")).as("v0 to v3").isEqualTo(4L);
    assertThat(metric("bounded", path, "VersionsDerived")).isEqualTo(0L);
    JsonNode done =
        TopicReader.jsonValue(
            TopicReader.readAll(cluster.bootstrapServers(), "bounded-notices", 2, WAIT, false)
                .get(1)
                .value());
    assertThat(done.get("aggregate_type").asText() + "/" + done.get("type").asText())
        .as("the notification after Table/FOUND")
        .isEqualTo("Table/DONE");
    assertThat(done.get("additional_data").get("end_version").asText()).isEqualTo("3");
    sql("DELETE FROM delta.`%s` WHERE id = 1", path); // v5: after the end too
    // No record carries the position after v3, which has no rows: a heartbeat stores it.
    cluster.rest().awaitStoredVersion("bounded", path, 4, WAIT);

    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readUntilQuiet(
            cluster.bootstrapServers(), "bounded", Duration.ofSeconds(3), WAIT, false);
    assertThat(ChangeDescriptions.ofRecords(records, "id", "name"))
        .containsExactlyInAnyOrderElementsOf(
            ChangeDescriptions.ofSparkFeedWithoutTombstones(path, 0, 3, "id", "name"));
    assertThat(records)
        .extracting(r -> TopicReader.longHeader(r, "_commit_version"))
        .containsOnly(1L, 2L);

    // A restart is done at once: it resumes after the end and reads nothing more.
    cluster.stopWorker();
    cluster.startWorker();
    cluster.rest().awaitRunning("bounded", 1, WAIT);
    awaitMetric("bounded", path, "EndReached", true);
    assertThat(
            TopicReader.readUntilQuiet(
                cluster.bootstrapServers(), "bounded", Duration.ofSeconds(3), WAIT, false))
        .hasSameSizeAs(records);
  }

  @Test
  void aRateLimitHoldsWithinTenPercent() {
    String path = table("limited");
    String values =
        LongStream.rangeClosed(1, RATE_ROWS)
            .mapToObj(id -> "(" + id + ", 'r" + id + "')")
            .collect(Collectors.joining(", "));
    sql("INSERT INTO delta.`%s` VALUES %s", path, values); // one version of RATE_ROWS rows
    cluster
        .rest()
        .deploy(
            "limited",
            config(
                path,
                "start.mode",
                "earliest",
                "max.rows.per.second",
                String.valueOf(RATE_PER_SECOND)),
            WAIT);
    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readAll(cluster.bootstrapServers(), "limited", RATE_ROWS, WAIT, false);
    assertThat(records).hasSize(RATE_ROWS);
    // Each record's Kafka timestamp is when the worker's producer took it (record.timestamp's
    // default), so the consumer's own delays do not count.
    LongSummaryStatistics sent =
        records.stream().mapToLong(ConsumerRecord::timestamp).summaryStatistics();
    double seconds = (sent.getMax() - sent.getMin()) / 1e3;
    double expected = (double) RATE_ROWS / RATE_PER_SECOND;
    System.out.printf(
        "%d records at max.rows.per.second=%d were sent over %.2f s (%.0f records/s)%n",
        RATE_ROWS, RATE_PER_SECOND, seconds, (RATE_ROWS - 1) / seconds);
    assertThat(seconds)
        .as("seconds from the first record to the last")
        .isBetween(expected * 0.9, expected * 1.1);
  }

  private static void awaitMetric(String connector, String path, String attribute, Object value)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!value.equals(metric(connector, path, attribute))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            attribute + " of " + path + " is still " + metric(connector, path, attribute));
      }
      Thread.sleep(200);
    }
  }

  /** An attribute of the table's metrics in the worker's JVM, null while not registered. */
  private static Object metric(String connector, String path, String attribute) {
    try {
      return cluster
          .workerMBeans()
          .getAttribute(TableMetrics.objectName(connector, path), attribute);
    } catch (JMException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String table(String name) {
    String path = dir.resolve(name).toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true')",
        path);
    return path;
  }

  private static Map<String, String> config(String path, String... extra) {
    return ConnectorConfig.forTables(path)
        .keyColumns("id")
        .with("tombstones.on.delete", "false")
        .pollIntervalMs(200)
        .with(extra)
        .build();
  }
}
