package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.KafkaCluster.WorkerKind;
import io.deltacdf.connect.it.testing.TopicReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The harness itself: broker, worker REST API, topic round trip, worker restart and crash. */
class KafkaClusterSmokeTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Test
  void brokerAndWorkerServeAndSurviveAWorkerRestart() throws Exception {
    // Unit tests run before `mvn package`: no plugin folder yet.
    try (KafkaCluster cluster = KafkaCluster.builder().worker(WorkerKind.IN_PROCESS).start()) {
      assertThat(cluster.rest().get("/health").status()).isEqualTo(200);
      ConnectRest.Response plugins = cluster.rest().get("/connector-plugins");
      assertThat(plugins.status()).isEqualTo(200);
      assertThat(plugins.body().isArray()).isTrue();

      cluster.createTopic("smoke", 1); // the broker creates no topic on first use
      produce(cluster.bootstrapServers(), "smoke", "a", "b", "c");
      List<ConsumerRecord<byte[], byte[]>> records =
          TopicReader.readAll(cluster.bootstrapServers(), "smoke", 3, TIMEOUT, true);
      assertThat(records)
          .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
          .containsExactly("a", "b", "c");
      assertThat(records)
          .extracting(r -> TopicReader.header(r, "n"))
          .containsExactly("0", "1", "2");
      assertThat(TopicReader.longHeader(records.get(2), "n")).isEqualTo(2L);

      cluster.stopWorker();
      cluster.startWorker();
      assertThat(cluster.rest().get("/health").status()).isEqualTo(200);
      assertThatThrownBy(cluster::killWorker).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  @Test
  void separateWorkerJvmCanBeKilledAndRestarted() {
    try (KafkaCluster cluster =
        KafkaCluster.builder().worker(WorkerKind.FORKED_ON_TEST_CLASSPATH).start()) {
      assertThat(cluster.rest().get("/health").status()).isEqualTo(200);
      cluster.killWorker();
      cluster.startWorker();
      assertThat(cluster.rest().get("/health").status()).isEqualTo(200);
    }
  }

  @Test
  void decodesConverterOutputAndValidateResponses() throws Exception {
    byte[] envelope =
        "{\"schema\":{\"type\":\"int64\",\"optional\":false},\"payload\":42}"
            .getBytes(StandardCharsets.UTF_8);
    assertThat(TopicReader.jsonValue(envelope).asLong()).isEqualTo(42L);
    assertThat(TopicReader.jsonSchema(envelope).path("type").asText()).isEqualTo("int64");
    assertThat(TopicReader.jsonKey(null)).isNull();
    JsonNode validated =
        new ObjectMapper()
            .readTree(
                "{\"error_count\":1,\"configs\":["
                    + "{\"value\":{\"name\":\"a\",\"errors\":[]}},"
                    + "{\"value\":{\"name\":\"b\",\"errors\":[\"Missing required configuration\"]}}]}");
    assertThat(ConnectRest.errorsByKey(validated))
        .isEqualTo(Map.of("b", List.of("Missing required configuration")));
  }

  private static void produce(String bootstrap, String topic, String... values) throws Exception {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", bootstrap),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < values.length; i++) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, values[i]);
        record.headers().add("n", String.valueOf(i).getBytes(StandardCharsets.UTF_8));
        producer.send(record).get();
      }
    }
  }
}
