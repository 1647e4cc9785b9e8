package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.lang.management.ManagementFactory;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bounded run whose start leaves nothing to read up to its end is refused, naming both. */
class RunEndTest {

  @TempDir static Path dir;
  private static String path;

  /** Versions 0 (create) to 3. */
  @BeforeAll
  static void createTable() {
    path = dir.resolve("ends").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO delta.`%s` VALUES (%d)", path, i);
    }
  }

  private static String failureOf(String... settings) throws InterruptedException {
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(ConnectorConfig.forTables(path).name("ends").with(settings).buildTask());
    try {
      return worker.pollUntilFailed(5).getMessage();
    } finally {
      worker.stop();
    }
  }

  @Test
  void aSnapshotAfterTheEndIsRefused() throws InterruptedException {
    assertThat(failureOf("start.mode", "snapshot", "end.version", "2"))
        .contains("snapshot at version 3", "end.version=2", "start.mode=version");
  }

  @Test
  void aStartAfterTheEndIsRefused() throws InterruptedException {
    assertThat(failureOf("start.mode", "latest", "end.version", "1"))
        .contains("starts at version 4", "end.version=1");
  }

  @Test
  void aSnapshotAtTheEndIsReadAndTheTableIsDone() throws Exception {
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(
        ConnectorConfig.forTables(path)
            .name("ends")
            .with("start.mode", "snapshot", "end.version", "3")
            .buildTask());
    try {
      assertThat(worker.poll(5)).filteredOn(r -> r.topic().equals("ends")).hasSize(3);
      ObjectName metrics = TableMetrics.objectName("ends", path);
      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      assertThat(jmx.getAttribute(metrics, "EndVersion")).isEqualTo(3L);
      assertThat(jmx.getAttribute(metrics, "EndReached")).isEqualTo(true);
    } finally {
      worker.stop();
    }
  }

  @Test
  void aBoundedRunDoesNotStartOverFromASnapshotAfterItsEnd() throws Exception {
    Path table = dir.resolve("vacuumed");
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        table);
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO delta.`%s` VALUES (%d)", table, i);
    }
    // Version 2's data file is gone, as VACUUM leaves a reader that fell behind.
    String commit = Files.readString(table.resolve("_delta_log/00000000000000000002.json"));
    Matcher added = Pattern.compile("\\{\"add\":\\{\"path\":\"([^\"]+)\"").matcher(commit);
    assertThat(added.find()).isTrue();
    Files.delete(table.resolve(URLDecoder.decode(added.group(1), StandardCharsets.UTF_8)));

    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(
        ConnectorConfig.forTables(table.toString())
            .name("vacuumed")
            .with(
                "start.mode", "version",
                "start.version", "1",
                "end.version", "2",
                "on.history.missing", "resnapshot")
            .buildTask());
    try {
      assertThat(worker.pollUntilFailed(5).getMessage())
          .contains("snapshot at version 3", "last version 2");
    } finally {
      worker.stop();
    }
  }
}
