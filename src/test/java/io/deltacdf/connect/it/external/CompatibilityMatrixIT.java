package io.deltacdf.connect.it.external;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.deltacdf.connect.it.external.testing.WorkerRuntime;
import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.ExternalKafka;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packaged plugin folder {@code connector/} in plain Apache Kafka Connect distributed workers
 * of every version line it claims, each run from that version's Maven Central jars against a Kafka
 * 4.4.0 broker: a snapshot, live changes, a worker restart and exactly-once delivery, each diffed
 * against Spark's change feed. docs/compatibility.md lists the results.
 *
 * <p>A normal build runs one case, the oldest claimed version on the test JVM's JDK (17), to keep
 * CI inside its time limit; {@code -Dcompat.full=true} runs every version line on it plus the
 * newest on Java 25 ({@code -Dcompat.jdk25=<home>}, default the Temurin package's folder; skipped
 * with a message where it is missing).
 */
class CompatibilityMatrixIT {

  private static final String OLDEST_CLAIMED = "3.9.2";
  private static final List<String> VERSION_LINES =
      List.of("3.9.2", "4.0.2", "4.1.2", "4.2.1", "4.3.1", "4.4.0");
  private static final Path JDK_25 =
      Path.of(System.getProperty("compat.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64"));
  private static final Duration WAIT = Duration.ofSeconds(120);
  // Records that trail the awaited count (duplicates) are read for this long after it.
  private static final Duration QUIET = Duration.ofSeconds(3);
  private static final String CONNECTOR = "compat";
  private static final String TABLE = "orders";
  // Writes to the table before the connector, while it runs, and after the restart: a few
  // inserts first, then a mix of updates, deletes and MERGEs (see ChangingTable).
  private static final int WRITES = 6;

  @TempDir static Path dir;

  static Stream<WorkerRuntime> workers() {
    if (!Boolean.getBoolean("compat.full")) {
      return Stream.of(WorkerRuntime.onTestJdk(OLDEST_CLAIMED));
    }
    return Stream.concat(
        VERSION_LINES.stream().map(WorkerRuntime::onTestJdk),
        Stream.of(new WorkerRuntime(WorkerRuntime.BROKER_KAFKA_VERSION, JDK_25)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("workers")
  void snapshotLiveChangesRestartAndExactlyOnce(WorkerRuntime worker) throws Exception {
    assumeTrue(
        Files.isExecutable(worker.javaExecutable()),
        "No JDK at " + worker.javaHome() + " (set -Dcompat.jdk25): case skipped");
    long started = System.nanoTime();
    Path caseDir =
        Files.createDirectories(
            dir.resolve(worker.kafkaVersion() + "-java" + worker.javaFeatureVersion()));
    ChangingTable table = new ChangingTable(caseDir.resolve(TABLE).toString(), 13, 400);
    table.write(WRITES);
    long kafkaStarted = System.nanoTime();
    try (ExternalKafka kafka =
        ExternalKafka.start(worker, Map.of("exactly.once.source.support", "enabled"))) {
      ConnectRest rest = new ConnectRest(kafka.connectUrl());
      assertThat(rest.get("/").body().path("version").asText())
          .as("the version the worker reports")
          .isEqualTo(worker.kafkaVersion());

      long snapshotVersion = table.latestVersion();
      rest.deploy(CONNECTOR, config(table.path()), WAIT);
      assertDeliveredExactlyOnce(
          kafka, table.sparkSnapshotThenChanges(snapshotVersion), "the snapshot");

      table.write(WRITES);
      assertDeliveredExactlyOnce(
          kafka, table.sparkSnapshotThenChanges(snapshotVersion), "live changes");

      kafka.restartWorker();
      rest.awaitRunning(CONNECTOR, 1, WAIT);
      table.write(WRITES);
      assertDeliveredExactlyOnce(
          kafka,
          table.sparkSnapshotThenChanges(snapshotVersion),
          "changes across a worker restart");
    }
    System.out.printf(
        "compat: %s passed in %d s, %d s of them from the broker's start%n",
        worker, seconds(started), seconds(kafkaStarted));
  }

  private static long seconds(long since) {
    return Duration.ofNanos(System.nanoTime() - since).toSeconds();
  }

  /** Exactly-once with a transaction per commit version: what a production setup would use. */
  private static Map<String, String> config(String path) {
    return ConnectorConfig.forTables(path)
        .startMode("snapshot")
        .keyColumns("id")
        .with("batch.max.rows", "200")
        .exactlyOnce()
        .build();
  }

  /**
   * A read_committed consumer sees every expected change once: nothing lost, nothing twice, nothing
   * Spark does not know of; and the connector's transactions each hold one commit version, so
   * exactly-once is really in force (records written without transactions show no commit markers
   * between versions).
   */
  private static void assertDeliveredExactlyOnce(
      ExternalKafka kafka, List<String> expected, String what) {
    AtomicInteger read = new AtomicInteger();
    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readUntil(
            kafka.bootstrapServers(),
            TABLE,
            batch -> read.addAndGet(batch.size()) >= expected.size(),
            QUIET,
            WAIT,
            true);
    FeedCheck check = new FeedCheck(expected, records);
    assertThat(List.of(check.lost, check.duplicated, check.unexpected))
        .as(
            "lost, duplicated, unexpected changes of %s: %s%n%s",
            what, check.summary(), kafka.workerLogTail())
        .containsOnly(0);
    assertThat(TopicReader.commitVersionsPerTransaction(records))
        .as("commit versions of each transaction of %s", what)
        .allSatisfy(versions -> assertThat(versions).hasSize(1));
  }
}
