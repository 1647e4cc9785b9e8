package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.TestSupport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records of a table whose commits are older than the topic's retention stay in Kafka: a consumer
 * that comes after the broker's retention check still reads every one. The topics have the broker's
 * default retention (7 days); the broker checks it every second instead of every 5 minutes.
 */
class KafkaRetentionIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final long RETENTION_CHECK_MS = 1_000;
  private static final Duration COMMIT_AGE = Duration.ofDays(30);

  @TempDir static Path dir;

  @RegisterExtension
  static final SharedCluster cluster =
      new SharedCluster(
          KafkaCluster.builder()
              .brokerProperty("log.retention.check.interval.ms", String.valueOf(RETENTION_CHECK_MS))
              .brokerProperty("log.initial.task.delay.ms", "0"));

  @Test
  void aLateConsumerReadsEveryRecordOfATableUntouchedForLongerThanTheRetention()
      throws IOException {
    String path = dir.resolve("dormant").toString();
    CdfTables.keyed(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann'), (2, 'bob'), (3, 'cy')", path);
    sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
    ageCommits(Path.of(path, "_delta_log"));

    deploy("retained-snapshot", path, "snapshot");
    deploy("retained-changes", path, "earliest");
    String snapshotTopic = "retained-snapshot.dormant";
    String changesTopic = "retained-changes.dormant";
    // The snapshot of version 2: three rows. The changes from version 0: three inserts, then the
    // update's two images.
    awaitProduced(snapshotTopic, 3);
    awaitProduced(changesTopic, 5);
    TestSupport.sleep(3 * RETENTION_CHECK_MS);

    List<ConsumerRecord<byte[], byte[]>> snapshot = read(snapshotTopic, 3);
    List<ConsumerRecord<byte[], byte[]>> changes = read(changesTopic, 5);
    long retentionStart = System.currentTimeMillis() - Duration.ofDays(7).toMillis();
    assertThat(changes)
        .as("the commits are older than the retention")
        .allSatisfy(
            r ->
                assertThat(TopicReader.longHeader(r, "_commit_timestamp"))
                    .isLessThan(retentionStart));
    assertThat(snapshot)
        .extracting(r -> TopicReader.header(r, "_change_type"))
        .containsOnly("insert");
    assertThat(changes)
        .extracting(r -> TopicReader.header(r, "_change_type"))
        .containsExactly("insert", "insert", "insert", "update_preimage", "update_postimage");
  }

  /** Dates the table's commits {@link #COMMIT_AGE} back, a second apart, in version order. */
  private static void ageCommits(Path log) throws IOException {
    Instant start = Instant.now().minus(COMMIT_AGE);
    try (Stream<Path> files = Files.list(log)) {
      List<Path> commits =
          files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
      for (int version = 0; version < commits.size(); version++) {
        Files.setLastModifiedTime(commits.get(version), FileTime.from(start.plusSeconds(version)));
      }
    }
  }

  private static void deploy(String name, String path, String startMode) {
    Map<String, String> config =
        ConnectorConfig.forTables(path)
            .topicTemplate(name + ".${table}")
            .keyColumns("id")
            .startMode(startMode)
            .pollIntervalMs(200)
            .build();
    cluster.get().rest().deploy(name, config, WAIT);
  }

  /** Waits until the broker has taken {@code count} records on {@code topic}, read or not. */
  private static void awaitProduced(String topic, long count) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long produced = 0;
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", cluster.get().bootstrapServers()))) {
      while (System.nanoTime() < deadline) {
        produced = endOffset(admin, topic);
        if (produced >= count) {
          return;
        }
        TestSupport.sleep(200);
      }
    }
    assertThat(produced).as("records produced to %s", topic).isGreaterThanOrEqualTo(count);
  }

  /** The end offset of the topic's one partition; 0 while the topic does not exist. */
  private static long endOffset(Admin admin, String topic) {
    TopicPartition partition = new TopicPartition(topic, 0);
    try {
      Map<TopicPartition, ListOffsetsResultInfo> offsets =
          admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get();
      return offsets.get(partition).offset();
    } catch (ExecutionException e) {
      return 0; // not created yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(
        cluster.get().bootstrapServers(), topic, count, Duration.ofSeconds(15));
  }
}
