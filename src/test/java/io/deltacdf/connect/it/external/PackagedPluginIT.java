package io.deltacdf.connect.it.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.delta.variant.testing.RandomJson;
import io.deltacdf.connect.demo.DemoTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.ExternalKafka;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.SparkHarness;
import io.deltacdf.connect.testing.SparkOracle;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The packaged plugin folder {@code connector/} in a Kafka 4.4.0 worker JVM whose classpath holds
 * Kafka only, configured with {@code config-examples/local-table.json} on the demo's table: what a
 * user (and demo.sh) runs. A runtime jar missing from {@code connector/lib} fails this test.
 */
class PackagedPluginIT {

  private static final String CONNECTOR = "io.deltacdf.connect.DeltaCdfSourceConnector";
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private static ExternalKafka kafka;
  private static ConnectRest rest;

  @TempDir static Path tables;

  @BeforeAll
  static void start() {
    kafka = ExternalKafka.start();
    rest = new ConnectRest(kafka.connectUrl());
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void workerListsThePluginFromPluginPathOnly() {
    JsonNode plugins = rest.get("/connector-plugins").body();
    assertThat(plugins.findValuesAsText("class")).contains(CONNECTOR);
    JsonNode workerClasses = rest.get("/connector-plugins?connectorsOnly=false").body();
    assertThat(workerClasses.findValuesAsText("class"))
        .as("the worker's own plugins are there as well")
        .contains("org.apache.kafka.connect.json.JsonConverter");
  }

  @Test
  void streamsTheDemoTableThroughTheExampleConfig() throws IOException {
    Path table = tables.resolve("customers");
    DemoTable.create(table);
    Map<String, String> config =
        ConnectorConfig.fromExample("local-table.json")
            .with("delta.table.paths", table.toString())
            .build();
    rest.deploy("customers", config, TIMEOUT);

    List<ConsumerRecord<byte[], byte[]>> snapshot =
        TopicReader.readAll(kafka.bootstrapServers(), "customers", 3, TIMEOUT, false);
    assertThat(snapshot).as(kafka.workerLogTail()).hasSize(3);
    assertThat(snapshot)
        .allSatisfy(r -> assertThat(TopicReader.header(r, "_change_type")).isEqualTo("insert"));
    assertThat(snapshot)
        .extracting(r -> TopicReader.jsonKey(r.key()).toString())
        .containsExactlyInAnyOrder("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");

    DemoTable.mutate(table);
    List<ConsumerRecord<byte[], byte[]>> all =
        TopicReader.readAll(kafka.bootstrapServers(), "customers", 10, TIMEOUT, false);
    assertThat(all).as(kafka.workerLogTail()).hasSize(10);
    List<String> changes =
        all.subList(3, 9).stream()
            .map(
                r ->
                    TopicReader.header(r, "_change_type")
                        + " "
                        + TopicReader.jsonKey(r.key()).path("id").asLong())
            .toList();
    assertThat(changes)
        .containsExactly(
            "insert 4",
            "insert 5",
            "insert 6",
            "update_preimage 1",
            "update_postimage 1",
            "delete 2");
    JsonNode postimage = TopicReader.jsonValue(all.get(7).value());
    assertThat(postimage.path("email").asText()).isEqualTo("ada.lovelace@example.org");
    assertThat(TopicReader.longHeader(all.get(8), "_commit_version"))
        .isGreaterThan(TopicReader.longHeader(all.get(3), "_commit_version"));
    // The delete's tombstone: the same key, no value.
    assertThat(all.get(9).value()).isNull();
    assertThat(TopicReader.jsonKey(all.get(9).key()).path("id").asLong()).isEqualTo(2L);
  }

  /**
   * Random JSON documents in a variant column, inserted, updated and deleted by Spark, arrive as
   * Spark's {@code to_json} text, with Debezium's JSON schema name. One document is {@code
   * -Dvariant.largest.bytes} of JSON text (200 KB here, 1 MiB with {@code
   * -Dvariant.largest.bytes=1048576}), so records may exceed Kafka's default request size.
   */
  @ParameterizedTest(name = "shredded {0}")
  @ValueSource(booleans = {false, true})
  void streamsVariantDocumentsAsSparkWritesThem(boolean shredded) {
    String name = shredded ? "shredded-events" : "events";
    String table = tables.resolve(name).toString();
    SparkHarness.sql(
        "CREATE TABLE delta.`%s` (id INT, doc VARIANT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true',"
            + " 'delta.enableVariantShredding' = '%s')",
        table, shredded);
    RandomJson random = new RandomJson(Long.getLong("variant.seed", 7L));
    List<String> documents = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      // Records of stable shape are what a writer shreds; random values mostly are not.
      documents.add(shredded ? random.record(i) : random.value(4));
    }
    if (!shredded) {
      // Size is the plain table's concern: one document a writer would not shred anyway.
      documents.add(random.document(5, Integer.getInteger("variant.largest.bytes", 200_000)));
    }
    SparkHarness.spark()
        .createDataset(documents, Encoders.STRING())
        .selectExpr("CAST(monotonically_increasing_id() AS INT) AS id", "parse_json(value) AS doc")
        .write()
        .format("delta")
        .mode("append")
        .save(table);
    SparkHarness.sql(
        "UPDATE delta.`%s` SET doc = parse_json('{\"updated\": [1, 2.5, null]}') WHERE id %% 4 = 0",
        table);
    SparkHarness.sql("DELETE FROM delta.`%s` WHERE id %% 5 = 1", table);
    long latest = SparkOracle.latestVersion(table);
    List<String> expected =
        SparkHarness.spark()
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 0)
            .load(table)
            .selectExpr("concat_ws(' ', _commit_version, _change_type, id, to_json(doc)) AS line")
            .as(Encoders.STRING())
            .collectAsList();

    Map<String, String> config =
        ConnectorConfig.fromExample("local-table.json")
            .with("delta.table.paths", table)
            .startMode("earliest")
            .with("value.converter.schemas.enable", "true")
            .with("producer.override.max.request.size", "16777216")
            .with("topic.creation.default.max.message.bytes", "16777216")
            .build();
    rest.deploy(name, config, TIMEOUT);
    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readAll(
            kafka.bootstrapServers(), name, expected.size() + deletes(expected), TIMEOUT, false);

    List<String> got = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (record.value() == null) {
        continue;
      }
      JsonNode value = TopicReader.jsonValue(record.value());
      assertThat(TopicReader.jsonSchema(record.value()).path("fields").findValuesAsText("name"))
          .contains("io.debezium.data.Json");
      got.add(
          String.join(
              " ",
              Long.toString(TopicReader.longHeader(record, "_commit_version")),
              TopicReader.header(record, "_change_type"),
              value.path("id").asText(),
              value.path("doc").asText()));
    }
    assertThat(latest).as("create, insert, update, delete").isEqualTo(3);
    assertThat(got).as(kafka.workerLogTail()).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** Each delete is followed by its tombstone. */
  private static int deletes(List<String> changes) {
    return (int) changes.stream().filter(line -> line.contains(" delete ")).count();
  }
}
