package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table replaced in place (REPLACE TABLE) keeps its log and gets a new Delta table id: the stream
 * goes on through it, its offsets name the new id from then on, and a restart resumes the same
 * table, old offsets or new, instead of taking it for a table created again.
 */
class ReplacedTableRestartTest {

  @TempDir Path dir;

  @Test
  void aRestartAfterAReplacementResumesTheSameTable() throws InterruptedException {
    String path = dir.resolve("orders").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path); // v1
    String oldId = idOf(path);
    Map<String, String> settings =
        ConnectorConfig.forTables(path)
            .name("replaced")
            .startMode("earliest")
            .keyColumns("id")
            .pollIntervalMs(50)
            .with("heartbeat.interval.ms", "0")
            .buildTask();
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings);
    assertThat(changes(worker.poll(3))).containsExactlyInAnyOrder("insert 1", "insert 2");
    worker.stop();
    assertThat(worker.storedOffset(Map.of("table", path))).containsEntry("table_id", oldId);

    sql(
        "CREATE OR REPLACE TABLE delta.`%s` USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')"
            + " AS SELECT 3L AS id, 'c' AS name",
        path); // v2
    String newId = idOf(path);
    assertThat(newId).isNotEqualTo(oldId);
    worker.start(settings); // from an offset of the old id, with the new one latest
    List<SourceRecord> replacing = worker.poll(4);
    worker.stop();
    assertThat(changes(replacing)).containsExactlyInAnyOrder("delete 1", "delete 2", "insert 3");
    assertThat(worker.storedOffset(Map.of("table", path))).containsEntry("table_id", newId);

    sql("INSERT INTO delta.`%s` VALUES (4, 'd')", path); // v3
    worker.start(settings); // from an offset of the new id
    List<SourceRecord> after = worker.poll(3);
    worker.stop();
    assertThat(changes(after)).containsExactly("insert 4");
  }

  /** The change records (no tombstones, no heartbeats), as "type id". */
  private static List<String> changes(List<SourceRecord> records) {
    return records.stream()
        .filter(r -> r.topic().equals("orders") && r.value() != null)
        .map(
            r ->
                r.headers().lastWithName("_change_type").value()
                    + " "
                    + ((Struct) r.value()).get("id"))
        .toList();
  }

  private static String idOf(String path) {
    return spark().sql("DESCRIBE DETAIL delta.`" + path + "`").first().getAs("id");
  }
}
