package io.deltacdf.connect.task;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.task.testing.FlakyFileSystem;
import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * provide.transaction.metadata=true in the task, through a {@link SimulatedWorker} that keeps
 * transactions as Connect does: a version split by transaction.max.rows has its BEGIN in the first
 * transaction and its END in the last, also across an aborted transaction; snapshot rows have no
 * transaction metadata.
 */
class TransactionMetadataTest {

  private static final String EVENTS = "eos.transaction";

  @TempDir Path dir;

  @AfterEach
  void storeUp() {
    FlakyFileSystem.down(false);
  }

  private static Map<String, String> settings(String tables, String... more) {
    return ConnectorConfig.forTables(tables)
        .name("eos")
        .pollIntervalMs(50)
        .keyColumns("id")
        .withAll(FlakyFileSystem.settings())
        .with("provide.transaction.metadata", "true")
        .with(more)
        .buildTask();
  }

  private static void createTable(String path) {
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
  }

  private static List<SourceRecord> onTopic(List<SourceRecord> records, String topic) {
    return records.stream().filter(r -> r.topic().equals(topic)).toList();
  }

  private static String status(SourceRecord event) {
    return ((Struct) event.value()).getString("status");
  }

  private static int transactionOf(SimulatedWorker worker, SourceRecord record) {
    List<List<SourceRecord>> transactions = worker.transactions();
    for (int i = 0; i < transactions.size(); i++) {
      if (transactions.get(i).contains(record)) {
        return i;
      }
    }
    throw new AssertionError("Not committed: " + record);
  }

  @Test
  void aSplitVersionHasBeginInItsFirstTransactionAndEndInItsLastAcrossAnAbort() throws Exception {
    Path table = dir.resolve("split");
    createTable(table.toString());
    spark()
        .range(0, 6, 1, 2)
        .selectExpr("id", "'n' AS name")
        .write()
        .format("delta")
        .mode("append")
        .save(table.toString()); // v1: two files of three rows
    SimulatedWorker worker = new SimulatedWorker(true);
    worker.start(
        settings(
            FlakyFileSystem.uri(table),
            "start.mode",
            "earliest",
            "batch.max.rows",
            "3",
            "transaction.max.rows",
            "2"));
    worker.poll(); // the first file: [BEGIN, row] and [row, row] committed
    FlakyFileSystem.down(true);
    worker.poll(); // the second file cannot be opened: the open transaction is aborted
    FlakyFileSystem.down(false);
    for (int i = 0; i < 40 && onTopic(worker.delivered(), EVENTS).size() < 2; i++) {
      worker.poll();
    }
    worker.stop();

    List<SourceRecord> rows = onTopic(worker.delivered(), "split");
    List<SourceRecord> events = onTopic(worker.delivered(), EVENTS);
    assertThat(rows).hasSize(6);
    assertThat(events).extracting(TransactionMetadataTest::status).containsExactly("BEGIN", "END");
    Struct end = (Struct) events.get(1).value();
    assertThat(end.getString("id")).isEqualTo("split:1");
    assertThat(end.getInt64("event_count")).as("counted across the abort").isEqualTo(6L);
    List<Struct> collections = end.getArray("data_collections");
    assertThat(collections.get(0).<String, Long>getMap("change_type_counts"))
        .containsExactlyEntriesOf(Map.of("insert", 6L));
    assertThat(transactionOf(worker, events.get(0))).isEqualTo(transactionOf(worker, rows.get(0)));
    assertThat(transactionOf(worker, events.get(1)))
        .isEqualTo(transactionOf(worker, rows.get(5)))
        .isGreaterThan(transactionOf(worker, events.get(0)));
    assertThat(rows)
        .allSatisfy(
            row ->
                assertThat(row.headers().lastWithName("_transaction_id").value())
                    .isEqualTo("split:1"));
  }

  @Test
  void snapshotRowsHaveNoTransactionMetadataAndTheVersionsAfterDo() throws Exception {
    String table = dir.resolve("snap").toString();
    createTable(table);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", table); // v1
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(settings(table, "start.mode", "snapshot"));
    for (int i = 0; i < 40 && onTopic(worker.delivered(), "snap").size() < 2; i++) {
      worker.poll();
    }
    sql("UPDATE delta.`%s` SET name = 'c' WHERE id = 1", table); // v2
    for (int i = 0; i < 40 && onTopic(worker.delivered(), EVENTS).size() < 2; i++) {
      worker.poll();
    }
    worker.stop();

    List<SourceRecord> rows = onTopic(worker.delivered(), "snap");
    assertThat(rows).hasSize(4);
    assertThat(rows.subList(0, 2))
        .as("snapshot rows")
        .allSatisfy(row -> assertThat(row.headers().lastWithName("_transaction_id")).isNull());
    assertThat(rows.subList(2, 4))
        .extracting(row -> row.headers().lastWithName("_transaction_id"))
        .extracting(Header::value)
        .containsOnly("snap:2");
    List<SourceRecord> events = onTopic(worker.delivered(), EVENTS);
    assertThat(events).extracting(TransactionMetadataTest::status).containsExactly("BEGIN", "END");
    Struct end = (Struct) events.get(1).value();
    assertThat(end.getString("operation")).isEqualTo("UPDATE");
    assertThat(end.getInt64("event_count")).isEqualTo(2L);
    assertThat(end.getInt64("commit_version")).isEqualTo(2L);
  }
}
