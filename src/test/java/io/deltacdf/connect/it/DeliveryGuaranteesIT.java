package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.LogCleanup;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.TestSupport;
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
 * Positions that no change record carries survive a worker restart on a real broker and worker:
 * heartbeats store them. Each scenario stops the worker gracefully, changes the table while it is
 * down, and starts it again.
 */
class DeliveryGuaranteesIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir static Path dir;
  @RegisterExtension static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder());

  @Test
  void anIdleLatestConnectorLosesNothingCommittedWhileTheWorkerWasDown() {
    String path = table("idle");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster.get().rest().deploy("idle", config(path, "start.mode", "latest"), WAIT);
    cluster.get().rest().awaitStoredVersion("idle", path, 2, WAIT);

    cluster.get().stopWorker();
    sql("INSERT INTO delta.`%s` VALUES (2, 'b'), (3, 'c')", path); // v2
    sql("UPDATE delta.`%s` SET name = 'z' WHERE id = 1", path); // v3
    cluster.get().startWorker();
    cluster.get().rest().awaitRunning("idle", 1, WAIT);

    assertThat(ChangeDescriptions.ofRecords(read("idle", 4), "id", "name"))
        .containsExactlyInAnyOrderElementsOf(
            ChangeDescriptions.ofSparkFeedWithoutTombstones(path, 2, "id", "name"));
  }

  @Test
  void aFilteredConnectorRestartsAfterLogCleanupWithoutMissingHistory() throws Exception {
    String path = table("filtered");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster
        .get()
        .rest()
        .deploy(
            "filtered",
            config(
                path,
                "start.mode",
                "earliest",
                "change.types",
                "insert",
                "heartbeat.interval.ms",
                "200"),
            WAIT);
    read("filtered", 1);
    LogCleanup.afterFilteredUpdates(cluster.get(), "filtered", path, WAIT);
    cluster.get().rest().awaitRunning("filtered", 1, WAIT);

    List<ConsumerRecord<byte[], byte[]>> records = read("filtered", 2);
    assertThat(records)
        .extracting(r -> TopicReader.longHeader(r, "_commit_version"))
        .containsExactly(1L, 6L);
    cluster.get().rest().awaitRunning("filtered", 1, WAIT);
  }

  @Test
  void aRestartDuringALongRunOfVersionsWithoutRowsDoesNotReadThemAgain() throws Exception {
    String path = table("quiet");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster
        .get()
        .rest()
        .deploy(
            "quiet", config(path, "start.mode", "earliest", "heartbeat.interval.ms", "100"), WAIT);
    read("quiet", 1);
    cluster.get().rest().awaitStoredVersion("quiet", path, 2, WAIT);

    cluster.get().stopWorker();
    // Long enough that offsets are flushed (every 500 ms) while the run is read: the lazy log
    // listing reads 4,000 such versions within one flush interval.
    int quietVersions = 20_000;
    writeCommitsWithoutData(Path.of(path), 2, quietVersions);
    long end = 2 + quietVersions;
    cluster.get().startWorker();
    long reached = awaitStoredVersionAbove("quiet", path, 2);
    assertThat(reached).as("a position stored in the middle of the run").isLessThan(end);

    cluster.get().stopWorker();
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path); // the version after the run
    cluster.get().startWorker();
    long lowest = Long.MAX_VALUE;
    long deadline = System.nanoTime() + WAIT.toNanos();
    long stored = -1;
    while (stored < end + 1 && System.nanoTime() < deadline) {
      stored = storedVersion("quiet", path);
      lowest = Math.min(lowest, stored);
      TestSupport.sleep(50);
    }
    assertThat(lowest).as("stored positions after the restart").isGreaterThanOrEqualTo(reached);
    assertThat(read("quiet", 2))
        .extracting(r -> TopicReader.longHeader(r, "_commit_version"))
        .containsExactly(1L, end);
  }

  /** Commits that hold only a commitInfo action, as metadata-only operations leave behind. */
  private static void writeCommitsWithoutData(Path table, long from, int count) throws Exception {
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

  /** Waits until Connect has stored a version after {@code version}; returns the first seen. */
  private static long awaitStoredVersionAbove(String connector, String path, long version) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      long stored = storedVersion(connector, path);
      if (stored > version) {
        return stored;
      }
      TestSupport.sleep(20);
    }
    throw new AssertionError("Offset of " + path + " never passed version " + version);
  }

  /** The version of the table's stored offset, or -1 when it has none. */
  private static long storedVersion(String connector, String path) {
    for (JsonNode entry : cluster.get().rest().offsets(connector).path("offsets")) {
      if (entry.path("partition").path("table").asText().equals(path)) {
        return entry.path("offset").path("version").asLong();
      }
    }
    return -1;
  }

  /** Waits until Connect has stored {@code version} as the table's offset (a heartbeat's). */
  private static String table(String name) {
    return CdfTables.keyed(dir.resolve(name), "delta.checkpointInterval", "2");
  }

  private static Map<String, String> config(String path, String... extra) {
    return ConnectorConfig.forTables(path)
        .keyColumns("id")
        .with("tombstones.on.delete", "false")
        .pollIntervalMs(200)
        .with(extra)
        .build();
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(cluster.get().bootstrapServers(), topic, count, WAIT);
  }
}
