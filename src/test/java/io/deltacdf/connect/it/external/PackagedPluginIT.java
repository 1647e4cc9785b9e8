package io.deltacdf.connect.it.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.demo.DemoTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.ExternalKafka;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
