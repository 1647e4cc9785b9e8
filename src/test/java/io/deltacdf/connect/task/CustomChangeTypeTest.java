package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer other than Delta's own may put other values than the four standard ones in a cdc file's
 * {@code _change_type}: row format passes them through as Spark's table_changes does, envelope
 * format refuses them by name.
 */
class CustomChangeTypeTest {

  @TempDir static Path dir;
  private static String path;

  /** Version 2 of the table is a hand-made commit of one cdc file: an insert and a 'touch'. */
  @BeforeAll
  static void tableWithACustomChangeType() throws IOException {
    path = dir.resolve("custom").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    Path written = dir.resolve("cdc-rows");
    spark()
        .sql(
            "SELECT * FROM VALUES (2L, 'b', 'insert'), (1L, 'a', 'touch')"
                + " AS t(id, name, _change_type)")
        .coalesce(1)
        .write()
        .parquet(written.toString());
    Path cdcFile = Path.of(path, "_change_data", "cdc-custom.snappy.parquet");
    Files.createDirectories(cdcFile.getParent());
    try (Stream<Path> files = Files.list(written)) {
      Files.move(
          files.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow(), cdcFile);
    }
    Files.writeString(
        Path.of(path, "_delta_log", String.format("%020d.json", 2)),
        "{\"commitInfo\":{\"timestamp\":"
            + System.currentTimeMillis()
            + ",\"operation\":\"MERGE\"}}\n"
            + "{\"cdc\":{\"path\":\"_change_data/cdc-custom.snappy.parquet\","
            + "\"partitionValues\":{},\"size\":"
            + Files.size(cdcFile)
            + ",\"dataChange\":false}}\n");
  }

  private static Map<String, String> settings(String format) {
    return ConnectorConfig.forTables(path)
        .name("custom-" + format)
        .startMode("version")
        .with("start.version", "2")
        .keyColumns("id")
        .with("record.format", format)
        .with("record.metadata.fields", "true")
        .with("heartbeat.interval.ms", "0")
        .buildTask();
  }

  @Test
  void rowFormatPassesTheValueThroughAsSparkReadsIt() throws Exception {
    List<String> spark =
        spark()
            .sql(String.format("SELECT _change_type FROM table_changes_by_path('%s', 2, 2)", path))
            .collectAsList()
            .stream()
            .map((Row row) -> row.getString(0))
            .toList();
    assertThat(spark).containsExactly("insert", "touch");

    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings("row"));
    List<SourceRecord> records = worker.poll(5);
    worker.stop();

    assertThat(records).hasSize(2);
    SourceRecord touch = records.get(1);
    assertThat(touch.headers().lastWithName("_change_type").value()).isEqualTo("touch");
    assertThat(((Struct) touch.value()).getString("_change_type")).isEqualTo("touch");
    assertThat(((Struct) touch.key()).getInt64("id")).isEqualTo(1L);
    assertThat(records.get(0).headers().lastWithName("_change_type").value()).isEqualTo("insert");
  }

  @Test
  void envelopeFormatRefusesItNamingTheValueTheTableAndTheVersion() throws Exception {
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings("envelope"));
    ConnectException failure = worker.pollUntilFailed(5);
    worker.stop();

    assertThat(failure.getMessage()).contains("'touch'", path, "version 2", "record.format=row");
  }
}
