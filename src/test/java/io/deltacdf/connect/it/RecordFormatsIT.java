package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record formats through a live connector: a consumer that applies the topic to a keyed store,
 * as a JDBC sink or a compacted topic would, ends up with the table Spark reads.
 *
 * <p>The table sees a snapshot, updates, deletes, a MERGE and an update of the key column, and has
 * a column name (with a space) that Avro would refuse, and a variant column that Spark shreds into
 * typed columns.
 */
class RecordFormatsIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final Duration QUIET = Duration.ofSeconds(5);
  private static final String STRING_CONVERTER = "org.apache.kafka.connect.storage.StringConverter";
  private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";

  @TempDir static Path dir;
  @RegisterExtension static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder());
  private static String path;

  @BeforeAll
  static void startClusterAndWriteTable() {
    path = dir.resolve("people").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING, `home city` STRING, seen TIMESTAMP,"
            + " doc VARIANT)"
            + " USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.columnMapping.mode'='name', 'delta.minReaderVersion'='2',"
            + " 'delta.minWriterVersion'='5', 'delta.enableVariantShredding'='true')",
        path);
    sql(
        "INSERT INTO delta.`%s` SELECT id, concat('n', id), 'Oslo',"
            + " timestamp'2024-05-01 12:00:00.123456',"
            + " parse_json(concat('{\"tags\": [\"a\"], \"id\": ', id, '}')) FROM range(1, 21)",
        path);
  }

  /** Live changes after both connectors have taken their snapshot. */
  private static void writeChanges() {
    sql("UPDATE delta.`%s` SET name = concat(name, '+') WHERE id %% 3 = 0", path);
    sql("DELETE FROM delta.`%s` WHERE id %% 5 = 0", path);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT id FROM range(18, 26)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET t.name = 'merged'"
            + " WHEN NOT MATCHED THEN INSERT (id, name, `home city`, seen)"
            + " VALUES (s.id, 'new', 'Bergen', timestamp'2024-06-01 00:00:00')",
        path);
    sql("UPDATE delta.`%s` SET id = id + 100 WHERE id = 1", path);
  }

  @Test
  void envelopesAndRowsWithTombstonesRebuildTheTable() {
    deploy(
        "envelope",
        "record.format",
        "envelope",
        "field.name.adjustment",
        "avro",
        "temporal.precision.mode",
        "microseconds");
    deploy("rows", "record.metadata.fields", "true");
    deploy("inserts", "change.types", "insert");
    deploy(
        "jsontext",
        "record.metadata.fields",
        "true",
        "record.timestamp",
        "commit",
        "output.format",
        "json",
        "key.converter",
        STRING_CONVERTER,
        "value.converter",
        STRING_CONVERTER);
    deploy(
        "plainjson",
        "record.metadata.fields",
        "true",
        "record.timestamp",
        "commit",
        "key.converter",
        JSON_CONVERTER,
        "key.converter.schemas.enable",
        "false",
        "value.converter",
        JSON_CONVERTER,
        "value.converter.schemas.enable",
        "false",
        "value.converter.decimal.format",
        "NUMERIC");
    assertThat(read("envelope.people")).hasSize(20);
    assertThat(read("rows.people")).hasSize(20);
    assertThat(read("inserts.people")).hasSize(20);

    writeChanges();
    Map<Long, String> expected = sparkTable();

    List<ConsumerRecord<byte[], byte[]>> events = read("envelope.people");
    assertThat(applyEnvelopes(events)).isEqualTo(expected);
    long updates = sparkChangeCount("update_postimage", "id != 101");
    assertThat(events.stream().map(RecordFormatsIT::op).filter("u"::equals).count())
        .as("one 'u' event per updated row whose key stayed")
        .isEqualTo(updates);
    JsonNode first = TopicReader.jsonValue(events.get(0).value());
    assertThat(first.get("op").asText()).isEqualTo("r");
    assertThat(first.get("after").has("home_city")).isTrue();
    assertThat(first.get("after").get("seen").asLong()).isEqualTo(1_714_564_800_123_456L);
    assertThat(first.get("source").get("table").asText()).isEqualTo("people");
    assertThat(first.get("after").get("doc").asText())
        .as("a variant as Spark's to_json text")
        .isEqualTo("{\"id\":" + first.get("after").get("id").asLong() + ",\"tags\":[\"a\"]}");

    List<ConsumerRecord<byte[], byte[]>> rows = read("rows.people");
    assertThat(applyRows(rows)).isEqualTo(expected);
    assertThat(rows)
        .filteredOn(r -> r.value() != null)
        .extracting(r -> TopicReader.jsonValue(r.value()).get("_change_type").asText())
        .containsExactlyElementsOf(
            rows.stream()
                .filter(r -> r.value() != null)
                .map(r -> TopicReader.header(r, "_change_type"))
                .toList());
    List<ConsumerRecord<byte[], byte[]>> inserts = read("inserts.people");
    assertThat(inserts).hasSize((int) (20 + sparkChangeCount("insert", "_commit_version > 1")));
    assertThat(inserts)
        .extracting(r -> TopicReader.header(r, "_change_type"))
        .containsOnly("insert");
    for (int i = 0; i < rows.size(); i++) {
      if ("delete".equals(TopicReader.header(rows.get(i), "_change_type"))
          && rows.get(i).value() != null) {
        assertThat(rows.get(i + 1).value()).as("tombstone after delete %d", i).isNull();
      }
    }
    assertSameRecords(read("jsontext.people"), read("plainjson.people"));
  }

  /**
   * output.format=json through StringConverter gives consumers the very bytes, headers and
   * timestamps (the commit's, with record.timestamp=commit) that the struct form gives through
   * JsonConverter without schemas.
   */
  private static void assertSameRecords(
      List<ConsumerRecord<byte[], byte[]>> text, List<ConsumerRecord<byte[], byte[]>> plain) {
    assertThat(text).hasSameSizeAs(plain).hasSizeGreaterThan(20);
    for (int i = 0; i < plain.size(); i++) {
      ConsumerRecord<byte[], byte[]> a = text.get(i);
      ConsumerRecord<byte[], byte[]> b = plain.get(i);
      assertThat(a.key()).as("key %d", i).isEqualTo(b.key());
      assertThat(a.value()).as("value %d", i).isEqualTo(b.value());
      assertThat(a.timestamp())
          .as("timestamp %d: record.timestamp=commit", i)
          .isEqualTo(b.timestamp())
          .isEqualTo(TopicReader.longHeader(b, "_commit_timestamp"));
      assertThat(a.headers().toArray()).as("headers %d", i).isEqualTo(b.headers().toArray());
    }
  }

  /** Applies Debezium events to a keyed store: r/c/u write 'after', d removes the key. */
  private static Map<Long, String> applyEnvelopes(List<ConsumerRecord<byte[], byte[]>> events) {
    Map<Long, String> state = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> event : events) {
      long id = TopicReader.jsonKey(event.key()).get("id").asLong();
      if (event.value() == null) {
        state.remove(id);
        continue;
      }
      JsonNode value = TopicReader.jsonValue(event.value());
      switch (value.get("op").asText()) {
        case "d" -> state.remove(id);
        case "u" -> {
          assertThat(value.get("before").get("id").asLong()).isEqualTo(id);
          state.put(id, describe(value.get("after")));
        }
        default -> state.put(id, describe(value.get("after")));
      }
    }
    return state;
  }

  /**
   * Applies rows to a keyed store: inserts and post-images write; deletes, pre-images (whose key
   * may be one the update changes) and tombstones remove.
   */
  private static Map<Long, String> applyRows(List<ConsumerRecord<byte[], byte[]>> rows) {
    Map<Long, String> state = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> row : rows) {
      long id = TopicReader.jsonKey(row.key()).get("id").asLong();
      JsonNode value = row.value() == null ? null : TopicReader.jsonValue(row.value());
      String type = value == null ? "tombstone" : value.get("_change_type").asText();
      if (type.equals("delete") || type.equals("update_preimage") || type.equals("tombstone")) {
        state.remove(id);
      } else {
        state.put(id, value.get("name").asText() + "@" + value.get("home city").asText());
      }
    }
    return state;
  }

  private static String describe(JsonNode after) {
    return after.get("name").asText() + "@" + after.get("home_city").asText();
  }

  private static String op(ConsumerRecord<byte[], byte[]> event) {
    return event.value() == null
        ? "tombstone"
        : TopicReader.jsonValue(event.value()).get("op").asText();
  }

  private static Map<Long, String> sparkTable() {
    Map<Long, String> state = new TreeMap<>();
    for (Row row : spark().read().format("delta").load(path).collectAsList()) {
      state.put(row.<Long>getAs("id"), row.getAs("name") + "@" + row.getAs("home city"));
    }
    return state;
  }

  private static long sparkChangeCount(String changeType, String condition) {
    return spark()
        .read()
        .format("delta")
        .option("readChangeFeed", "true")
        .option("startingVersion", 0)
        .load(path)
        .where("_change_type = '" + changeType + "' AND " + condition)
        .count();
  }

  private static void deploy(String name, String... settings) {
    Map<String, String> config =
        ConnectorConfig.forTables(path)
            .topicTemplate(name + ".${table}")
            .keyColumns("id")
            .pollIntervalMs(200)
            .with(settings)
            .build();
    cluster.get().rest().deploy(name, config, WAIT);
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic) {
    return TopicReader.readUntilQuiet(cluster.get().bootstrapServers(), topic, QUIET, WAIT, false);
  }
}
