package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.LogCleanup;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new user on Kafka configured as the managed services run it: the broker creates no topic on
 * first use (as every broker of the tests), the data topics are created by hand as the services'
 * runbooks say, and the connector config is copied from config-examples/. The heartbeats that store
 * positions no record carries must reach their topic, or the task must fail at once, naming it:
 * never a RUNNING task that sends nothing.
 */
class ManagedKafkaIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  /** TopicDeliveries.LIMIT (30 s), with room for the check's interval and a loaded machine. */
  private static final Duration FAILS_WITHIN = Duration.ofSeconds(60);

  @TempDir static Path dir;
  // A worker JVM of its own: its log file is where a user reads what the task logged.
  @RegisterExtension static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder());

  @Test
  void aLatestStartOnAnIdleTableKeepsWhatWasCommittedWhileTheWorkerWasDown() throws IOException {
    String path = table("idle");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster.get().createTopic("idle", 1);
    cluster
        .get()
        .rest()
        .deploy("idle", example(path, "idle", "start.mode", "latest").build(), WAIT);
    cluster.get().rest().awaitStoredVersion("idle", path, 2, WAIT);

    cluster.get().stopWorker();
    sql("INSERT INTO delta.`%s` VALUES (2, 'b'), (3, 'c')", path); // v2
    sql("UPDATE delta.`%s` SET name = 'z' WHERE id = 1", path); // v3
    cluster.get().startWorker();

    assertThat(ChangeDescriptions.ofRecords(read("idle", 4), "id", "name"))
        .containsExactlyInAnyOrderElementsOf(
            ChangeDescriptions.ofSparkFeedWithoutTombstones(path, 2, "id", "name"));
    assertThat(cluster.get().topicExists("__delta-cdf-heartbeat.idle"))
        .as("the heartbeat topic, created by Connect as the example asks")
        .isTrue();
  }

  @Test
  void aVersionWithoutChangeRowsDoesNotStallTheChangesAfterIt() throws IOException {
    String path = table("optimized");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path); // v2
    cluster.get().createTopic("optimized", 1);
    cluster
        .get()
        .rest()
        .deploy(
            "optimized",
            example(path, "optimized", "start.mode", "earliest", "heartbeat.interval.ms", "100")
                .build(),
            WAIT);
    read("optimized", 2);
    sql("OPTIMIZE delta.`%s`", path); // v3: rewrites files, no change rows
    cluster.get().rest().awaitStoredVersion("optimized", path, 4, WAIT);
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path); // v4

    assertThat(read("optimized", 3))
        .extracting(r -> TopicReader.longHeader(r, "_commit_version"))
        .containsExactly(1L, 2L, 4L);
  }

  @Test
  void filteredUpdatesMoveTheStoredPositionSoARestartAfterLogCleanupResumes() throws Exception {
    String path = table("inserts");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster.get().createTopic("inserts", 1);
    cluster
        .get()
        .rest()
        .deploy(
            "inserts",
            example(
                    path,
                    "inserts",
                    "start.mode",
                    "earliest",
                    "change.types",
                    "insert",
                    "heartbeat.interval.ms",
                    "200")
                .build(),
            WAIT);
    read("inserts", 1);
    LogCleanup.afterFilteredUpdates(cluster.get(), "inserts", path, WAIT);

    assertThat(read("inserts", 2))
        .extracting(r -> TopicReader.longHeader(r, "_commit_version"))
        .containsExactly(1L, 6L);
    cluster.get().rest().awaitRunning("inserts", 1, WAIT);
  }

  /**
   * The example without its topic.creation settings, and no heartbeat topic: Connect's producer
   * would wait for the topic forever (Connect sets max.block.ms to Long.MAX_VALUE). The task fails
   * after TopicDeliveries.LIMIT instead, and its log names the topic and both fixes.
   */
  @Test
  void withoutTheHeartbeatTopicTheTaskFailsAndItsLogNamesTheTopicAndBothFixes() throws IOException {
    String path = table("nocreation");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster.get().createTopic("nocreation", 1);
    Map<String, String> config =
        example(path, "nocreation", "start.mode", "latest").withoutTopicCreation().build();
    long started = System.nanoTime();
    cluster.get().rest().deploy("nocreation", config, WAIT);

    String trace = cluster.get().rest().awaitTaskFailed("nocreation", FAILS_WITHIN);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(FAILS_WITHIN);
    assertThat(trace).contains("Unrecoverable exception trying to send");
    assertThat(Files.readString(cluster.get().workerLog()))
        .contains(
            "Heartbeat topic '__delta-cdf-heartbeat.nocreation' (setting heartbeat.topic) has"
                + " taken none of this task's records")
        .contains("create the topic (one partition, cleanup.policy=compact)")
        .contains("topic.creation.default.replication.factor");
  }

  /**
   * With topic.check.bootstrap.servers the task checks its topics before its first send, so the
   * missing heartbeat topic fails it from its own poll: the status, which users read first, names
   * the topic and the fixes, and it does so at once.
   */
  @Test
  void withTheTopicCheckTheTaskStatusNamesTheMissingTopicAndBothFixes() throws IOException {
    String path = table("checked");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster.get().createTopic("checked", 1);
    Map<String, String> config =
        example(
                path,
                "checked",
                "start.mode",
                "latest",
                "topic.check.bootstrap.servers",
                cluster.get().bootstrapServers())
            .withoutTopicCreation()
            .build();
    long started = System.nanoTime();
    // Not deploy(): it waits for RUNNING, and this task fails at its first poll.
    cluster.get().rest().putConfig("checked", config);

    String trace = cluster.get().rest().awaitTaskFailed("checked", FAILS_WITHIN);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("fails at its first send, not after the producer's wait")
        .isLessThan(Duration.ofSeconds(25));
    assertThat(trace)
        .contains(
            "Heartbeat topic '__delta-cdf-heartbeat.checked' (setting heartbeat.topic) does not"
                + " exist")
        .contains("create the topic (one partition, cleanup.policy=compact)")
        .contains("topic.creation.default.replication.factor");
  }

  /** The same for a change topic nobody created. */
  @Test
  void withoutTheChangeTopicTheTaskFailsAndItsLogNamesIt() throws IOException {
    String path = table("nodata");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster.get().createTopic("__delta-cdf-heartbeat.nodata", 1);
    Map<String, String> config = example(path, "nodata").withoutTopicCreation().build();
    cluster.get().rest().deploy("nodata", config, WAIT);

    cluster.get().rest().awaitTaskFailed("nodata", FAILS_WITHIN);
    assertThat(Files.readString(cluster.get().workerLog()))
        .contains("Topic 'nodata' has taken none of this task's records");
  }

  /**
   * A user who set the producer's max.block.ms themselves gets Connect's own failure when it runs
   * out, which names the topic.
   */
  @Test
  void aShorterMaxBlockMsFailsTheTaskThroughConnectNamingTheTopic() throws IOException {
    String path = table("blocked");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    Map<String, String> config =
        example(path, "blocked", "producer.override.max.block.ms", "3000")
            .withoutTopicCreation()
            .build();
    cluster.get().rest().deploy("blocked", config, WAIT);

    assertThat(cluster.get().rest().awaitTaskFailed("blocked", WAIT))
        .contains("Topic blocked not present in metadata after 3000 ms");
  }

  /** config-examples/local-table.json as a user copies it, for {@code path} and its topic. */
  private static ConnectorConfig example(String path, String topic, String... extra) {
    return ConnectorConfig.fromExample("local-table.json")
        .with("delta.table.paths", path)
        .topicTemplate(topic)
        .with("tombstones.on.delete", "false")
        .pollIntervalMs(200)
        .with(extra);
  }

  /** Waits until Connect has stored {@code version} as the table's offset (a heartbeat's). */
  private static String table(String name) {
    return CdfTables.keyed(dir.resolve(name), "delta.checkpointInterval", "2");
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(cluster.get().bootstrapServers(), topic, count, WAIT);
  }
}
