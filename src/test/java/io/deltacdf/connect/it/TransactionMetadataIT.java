package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * provide.transaction.metadata=true through a real worker with exactly-once, on a broker that
 * creates no topics (Connect creates them from the connector's topic.creation settings): a BEGIN
 * and an END event around every version with rows, END counting the version's events and its change
 * rows per change type as Spark's table_changes does and naming the commit's operation as the
 * table's history does; every change record carries its version's transaction; and each Kafka
 * transaction holds one version's BEGIN and END, as read_committed shows.
 *
 * <p>CI size: one table of five versions (insert, update, delete, merge), read by two connectors
 * (row and envelope format). {@code -Dtxmeta.rows=N} inserts N rows first instead of 8.
 */
class TransactionMetadataIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final int ROWS = Integer.getInteger("txmeta.rows", 8);

  @TempDir static Path dir;
  private static KafkaCluster cluster;
  private static String path;

  /** Spark's answer: change rows per version and change type. */
  private static Map<Long, Map<String, Long>> sparkCounts;

  /** The table's history: each version's operation. */
  private static Map<Long, String> operations;

  @BeforeAll
  static void writeTableAndStartCluster() {
    path = dir.resolve("orders").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` SELECT id, 'a' FROM range(0, %d)", path, ROWS); // v1
    sql("UPDATE delta.`%s` SET name = 'b' WHERE id < 3", path); // v2
    sql("DELETE FROM delta.`%s` WHERE id = 5", path); // v3
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT 1L AS id, 'm' AS name UNION ALL"
            + " SELECT 100L, 'n') s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        path); // v4
    sparkCounts = new TreeMap<>();
    for (Row row :
        spark()
            .sql(
                String.format(
                    "SELECT _commit_version, _change_type, count(*) FROM"
                        + " table_changes_by_path('%s', 0) GROUP BY 1, 2",
                    path))
            .collectAsList()) {
      sparkCounts
          .computeIfAbsent(row.getLong(0), v -> new TreeMap<>())
          .put(row.getString(1), row.getLong(2));
    }
    operations = new TreeMap<>();
    for (Row row :
        spark()
            .sql(String.format("DESCRIBE HISTORY delta.`%s`", path))
            .select("version", "operation")
            .collectAsList()) {
      operations.put(row.getLong(0), row.getString(1));
    }
    cluster = KafkaCluster.builder().exactlyOnce(true).start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Map<String, String> config(String topic, String format) {
    return ConnectorConfig.forTables(path)
        .startMode("earliest")
        .keyColumns("id")
        .topicTemplate(topic)
        .exactlyOnce()
        .with(
            "record.format", format, "batch.max.rows", "2", "provide.transaction.metadata", "true")
        .build();
  }

  @Test
  void beginAndEndFrameEveryVersionWithSparksCounts() {
    cluster.rest().deploy("txrow", config("orders-row", "row"), WAIT);
    cluster.rest().deploy("txenv", config("orders-env", "envelope"), WAIT);
    long start = System.nanoTime();

    List<ConsumerRecord<byte[], byte[]>> rowEvents = events("txrow.transaction");
    List<ConsumerRecord<byte[], byte[]>> rows =
        TopicReader.readUntilQuiet(
            cluster.bootstrapServers(), "orders-row", Duration.ofSeconds(3), WAIT, true);
    assertFramesEveryVersion(rowEvents, rows, "orders-row");
    for (ConsumerRecord<byte[], byte[]> row : rows) {
      assertThat(TopicReader.header(row, "_transaction_id"))
          .as("transaction of a row record")
          .isEqualTo("orders-row:" + TopicReader.longHeader(row, "_commit_version"));
    }

    List<ConsumerRecord<byte[], byte[]>> envelopeEvents = events("txenv.transaction");
    List<ConsumerRecord<byte[], byte[]>> envelopes =
        TopicReader.readUntilQuiet(
            cluster.bootstrapServers(), "orders-env", Duration.ofSeconds(3), WAIT, true);
    assertFramesEveryVersion(envelopeEvents, envelopes, "orders-env");
    Map<String, Long> lastOrder = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : envelopes) {
      JsonNode event = TopicReader.jsonValue(record.value());
      if (event == null) {
        continue;
      }
      JsonNode transaction = event.get("transaction");
      String id = "orders-env:" + event.get("source").get("commit_version").asLong();
      assertThat(transaction.get("id").asText()).isEqualTo(id);
      long order = transaction.get("total_order").asLong();
      assertThat(order).as("order in %s", id).isEqualTo(lastOrder.getOrDefault(id, 0L) + 1);
      assertThat(transaction.get("data_collection_order").asLong()).isEqualTo(order);
      lastOrder.put(id, order);
    }
    System.out.printf(
        "transaction metadata: %d versions framed twice, read in %d ms%n",
        sparkCounts.size(), (System.nanoTime() - start) / 1_000_000);
  }

  /** BEGIN then END of each version, both in one Kafka transaction; none but those. */
  private static List<ConsumerRecord<byte[], byte[]>> events(String topic) {
    int expected = 2 * sparkCounts.size();
    List<ConsumerRecord<byte[], byte[]>> events =
        TopicReader.readAll(cluster.bootstrapServers(), topic, expected, WAIT, true);
    assertThat(events).as("events on %s", topic).hasSize(expected);
    return events;
  }

  private static void assertFramesEveryVersion(
      List<ConsumerRecord<byte[], byte[]>> events,
      List<ConsumerRecord<byte[], byte[]>> records,
      String topic) {
    Map<String, Long> eventsByTransaction = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (record.value() != null) {
        eventsByTransaction.merge(
            topic + ":" + TopicReader.longHeader(record, "_commit_version"), 1L, Long::sum);
      }
    }
    List<Long> versions = new ArrayList<>(sparkCounts.keySet());
    for (int i = 0; i < versions.size(); i++) {
      long version = versions.get(i);
      String id = topic + ":" + version;
      ConsumerRecord<byte[], byte[]> beginRecord = events.get(2 * i);
      ConsumerRecord<byte[], byte[]> endRecord = events.get(2 * i + 1);
      JsonNode begin = TopicReader.jsonValue(beginRecord.value());
      JsonNode end = TopicReader.jsonValue(endRecord.value());
      assertThat(TopicReader.jsonKey(beginRecord.key()).get("id").asText()).isEqualTo(id);
      assertThat(begin.get("status").asText()).isEqualTo("BEGIN");
      assertThat(begin.get("id").asText()).isEqualTo(id);
      assertThat(begin.get("event_count").isNull()).isTrue();
      assertThat(end.get("status").asText()).isEqualTo("END");
      assertThat(end.get("id").asText()).isEqualTo(id);
      assertThat(end.get("commit_version").asLong()).isEqualTo(version);
      assertThat(end.get("operation").asText()).as(id).isEqualTo(operations.get(version));
      assertThat(end.get("event_count").asLong()).as(id).isEqualTo(eventsByTransaction.get(id));
      JsonNode collection = end.get("data_collections").get(0);
      assertThat(collection.get("data_collection").asText()).isEqualTo(topic);
      assertThat(collection.get("event_count").asLong()).isEqualTo(eventsByTransaction.get(id));
      Map<String, Long> byType = new TreeMap<>();
      collection
          .get("change_type_counts")
          .fields()
          .forEachRemaining(entry -> byType.put(entry.getKey(), entry.getValue().asLong()));
      assertThat(byType).as("change rows of %s by type", id).isEqualTo(sparkCounts.get(version));
      assertThat(endRecord.partition()).isEqualTo(beginRecord.partition());
      assertThat(endRecord.offset())
          .as("END in BEGIN's transaction: no commit marker between them")
          .isEqualTo(beginRecord.offset() + 1);
    }
    assertThat(eventsByTransaction.keySet())
        .as("versions with records")
        .hasSize(sparkCounts.size());
  }
}
