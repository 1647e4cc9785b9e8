package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The connector against a broker in a container, for machines with Docker; reported as skipped
 * where there is no Docker daemon.
 */
@Testcontainers(disabledWithoutDocker = true)
class KafkaContainerIT {

  @Container static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.1");

  @TempDir static Path dir;

  @Test
  void streamsATableThroughAContainerizedBroker() {
    String path = dir.resolve("boxed").toString();
    CdfTables.keyed(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path);
    try (KafkaCluster cluster =
        KafkaCluster.builder().externalBroker(KAFKA.getBootstrapServers()).start()) {
      cluster
          .rest()
          .deploy(
              "boxed",
              // The container's broker creates topics on first use, Kafka's default.
              ConnectorConfig.forTables(path).withoutTopicCreation().keyColumns("id").build(),
              Duration.ofSeconds(60));
      List<ConsumerRecord<byte[], byte[]>> records =
          TopicReader.readAll(
              cluster.bootstrapServers(), "boxed", 2, Duration.ofSeconds(60), false);
      assertThat(records).hasSize(2);
    }
  }
}
