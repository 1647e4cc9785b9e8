package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An offset altered through the REST API is checked against the table when the task opens it: one
 * after the latest version fails the task whatever on.history.missing says, one whose history is
 * gone follows on.history.missing and is named in the error or the warning, and a version the
 * connector cannot read for another reason is reported as what it is, not as missing history.
 */
class AlteredOffsetsTest {

  @TempDir Path dir;

  private static Map<String, String> settings(String path, String... more) {
    return ConnectorConfig.forTables(path)
        .name("altered")
        .pollIntervalMs(50)
        .with(more)
        .buildTask();
  }

  /** Versions 1-4 (three rows at the end), checkpoints at 2 and 4. */
  private String tableWithFourVersions(String name) {
    String path = dir.resolve(name).toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta TBLPROPERTIES"
            + " ('delta.enableChangeDataFeed'='true', 'delta.checkpointInterval'='2')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path); // v2
    sql("UPDATE delta.`%s` SET name = 'z' WHERE id = 1", path); // v3
    sql("INSERT INTO delta.`%s` VALUES (3, 'c')", path); // v4
    return path;
  }

  /** Log cleanup to the checkpoint at version 4: the commits before it are gone. */
  private static void cleanUpLogBeforeVersion4(String path) throws IOException {
    Path log = Path.of(path, "_delta_log");
    for (int version = 0; version < 4; version++) {
      Files.delete(log.resolve(String.format("%020d.json", version)));
    }
  }

  @Test
  void anOffsetAfterTheLatestVersionFailsTheTaskEvenWithResnapshot() throws Exception {
    String path = tableWithFourVersions("ahead");
    SimulatedWorker worker = new SimulatedWorker(false);
    Map<String, String> settings =
        settings(path, "start.mode", "earliest", "on.history.missing", "resnapshot");
    worker.start(settings);
    assertThat(worker.poll(3)).isNotEmpty();
    worker.stop();
    int delivered = worker.delivered().size();

    worker.alterOffset(path, Map.of("version", 9L));
    worker.start(settings);
    ConnectException failure = worker.pollUntilFailed(5);
    worker.stop();

    assertThat(failure.getMessage()).contains(path, "at version 9", "latest version 4");
    assertThat(worker.delivered()).as("nothing re-sent from a snapshot").hasSize(delivered);
  }

  @Test
  void anOffsetWhoseHistoryIsGoneFailsNamingTheTableAndTheOffset() throws Exception {
    String path = tableWithFourVersions("cleaned");
    cleanUpLogBeforeVersion4(path);
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.alterOffset(path, Map.of("version", 1L));

    worker.start(settings(path));
    ConnectException failure = worker.pollUntilFailed(5);
    worker.stop();

    assertThat(failure.getMessage())
        .contains(path, "at version 1", "earliest version that can be read is 4");
    assertThat(worker.delivered()).isEmpty();
  }

  @Test
  void withResnapshotAnOffsetWhoseHistoryIsGoneIsNamedInAWarningBeforeTheSnapshot()
      throws Exception {
    String path = tableWithFourVersions("warned");
    cleanUpLogBeforeVersion4(path);
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.alterOffset(path, Map.of("version", 1L));

    List<String> warnings =
        captureWarnings(
            () -> {
              worker.start(settings(path, "on.history.missing", "resnapshot"));
              worker.poll(3);
              worker.stop();
            });

    assertThat(warnings)
        .anySatisfy(warning -> assertThat(warning).contains(path, "at version 1", "snapshot"));
    assertThat(worker.delivered())
        .as("the snapshot of version 4")
        .allSatisfy(
            r -> assertThat(r.headers().lastWithName("_commit_version").value()).isEqualTo(4L))
        .hasSize(3);
  }

  @Test
  void anOffsetInASnapshotOfAVersionWithAnUnsupportedFeatureIsReportedAsSuch() throws Exception {
    String path = tableWithFourVersions("featured");
    long unreadable = addVersionWithAnUnknownReaderFeature(path);
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.alterOffset(
        path, Map.of("snapshot", true, "version", unreadable, "path", "", "row", 0L));

    worker.start(settings(path, "on.history.missing", "resnapshot"));
    ConnectException failure = worker.pollUntilFailed(5);
    worker.stop();

    assertThat(failure.getMessage()).contains(path, "madeUpFeature").doesNotContain("history");
    assertThat(worker.delivered()).as("nothing sent from another snapshot").isEmpty();
  }

  @Test
  void aStartVersionWithAnUnsupportedFeatureIsNotReportedAsCleanedUp() throws Exception {
    String path = tableWithFourVersions("start-featured");
    long unreadable = addVersionWithAnUnknownReaderFeature(path);
    SimulatedWorker worker = new SimulatedWorker(false);

    worker.start(
        settings(path, "start.mode", "version", "start.version", Long.toString(unreadable)));
    ConnectException failure = worker.pollUntilFailed(5);
    worker.stop();

    assertThat(failure.getMessage()).contains(path, "madeUpFeature").doesNotContain("cleaned up");
  }

  /**
   * Commits version 5, whose protocol needs a reader feature no reader knows, and version 6, which
   * restores the table's protocol: version 5 alone cannot be read. Returns 5.
   */
  private static long addVersionWithAnUnknownReaderFeature(String path) throws IOException {
    Path log = Path.of(path, "_delta_log");
    String protocol =
        Files.readAllLines(log.resolve(String.format("%020d.json", 0))).stream()
            .filter(line -> line.startsWith("{\"protocol\""))
            .findFirst()
            .orElseThrow();
    long now = System.currentTimeMillis();
    Files.writeString(
        log.resolve(String.format("%020d.json", 5)),
        commitInfo(now)
            + "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
            + "\"readerFeatures\":[\"madeUpFeature\"],\"writerFeatures\":[\"madeUpFeature\"]}}\n");
    Files.writeString(
        log.resolve(String.format("%020d.json", 6)), commitInfo(now + 1) + protocol + "\n");
    return 5;
  }

  private static String commitInfo(long timestamp) {
    return "{\"commitInfo\":{\"timestamp\":"
        + timestamp
        + ",\"inCommitTimestamp\":"
        + timestamp
        + ",\"operation\":\"SET TBLPROPERTIES\"}}\n";
  }

  private interface Run {
    void run() throws Exception;
  }

  private static List<String> captureWarnings(Run run) throws Exception {
    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    LoggerContext logs = (LoggerContext) LogManager.getContext(false);
    AbstractAppender capture =
        new AbstractAppender("altered-offsets", null, null, true, null) {
          @Override
          public void append(LogEvent event) {
            if (event.getLevel().isMoreSpecificThan(org.apache.logging.log4j.Level.WARN)) {
              warnings.add(event.getMessage().getFormattedMessage());
            }
          }
        };
    capture.start();
    logs.getConfiguration().getRootLogger().addAppender(capture, null, null);
    try {
      run.run();
    } finally {
      logs.getConfiguration().getRootLogger().removeAppender("altered-offsets");
    }
    return warnings;
  }
}
