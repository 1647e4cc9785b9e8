package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.DeltaCdfSourceConnector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example of our connector in config-examples/ is a configuration it accepts as written. The
 * sink-side examples (Debezium's JDBC sink: postgres-sink-*.json) are run as written by
 * PostgresMirrorIT instead; any other connector.class is a mistake.
 */
class ConfigExamplesTest {

  private static final String JDBC_SINK = "io.debezium.connector.jdbc.JdbcSinkConnector";

  static Stream<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("config-examples"))) {
      return files
          .filter(f -> f.toString().endsWith(".json"))
          .filter(ConfigExamplesTest::isOurs)
          .sorted()
          .toList()
          .stream();
    }
  }

  @SuppressWarnings("unchecked")
  private static boolean isOurs(Path example) {
    try {
      Map<String, String> settings = new ObjectMapper().readValue(example.toFile(), Map.class);
      String connector = settings.get("connector.class");
      if (JDBC_SINK.equals(connector)) {
        return false;
      }
      assertThat(connector)
          .as("connector.class of " + example)
          .isEqualTo(DeltaCdfSourceConnector.class.getName());
      return true;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  @SuppressWarnings("unchecked")
  void isAcceptedAsWritten(Path example) throws IOException {
    Map<String, String> settings = new ObjectMapper().readValue(example.toFile(), Map.class);
    assertThat(UnknownKeys.find(settings)).as(example.toString()).isEmpty();
    Map<String, List<String>> problems =
        new HashMap<>(new DeltaCdfSourceConfig(settings).crossFieldProblems());
    // The example's key file lives on the user's workers, not here.
    problems.remove("gcs.keyfile.path");
    assertThat(problems).as(example.toString()).isEmpty();
  }

  /**
   * On clusters that create no topic on first use, heartbeats (which store positions no record
   * carries) need their topic: each example asks Connect to create it, in a group of its own with
   * one compacted partition. KIP-158 needs the default group for any creation at all.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  @SuppressWarnings("unchecked")
  void letsConnectCreateTheHeartbeatTopic(Path example) throws IOException {
    Map<String, String> settings = new ObjectMapper().readValue(example.toFile(), Map.class);
    String heartbeatTopic = new DeltaCdfSourceConfig(settings).heartbeatTopic("orders-cdf");
    assertThat(settings)
        .as(example.toString())
        .containsKeys(
            "topic.creation.default.replication.factor", "topic.creation.default.partitions")
        .containsEntry("topic.creation.heartbeat.partitions", "1")
        .containsEntry("topic.creation.heartbeat.cleanup.policy", "compact");
    assertThat(settings.get("topic.creation.groups").split(","))
        .as(example.toString())
        .startsWith("heartbeat");
    assertThat(heartbeatTopic)
        .as(example.toString())
        .matches(settings.get("topic.creation.heartbeat.include"));
  }

  /**
   * An example with provide.transaction.metadata=true lets Connect create the transaction topic
   * too: one partition, so that the events of all versions are read in order, and not compacted, as
   * a version's BEGIN and END share their key.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  @SuppressWarnings("unchecked")
  void letsConnectCreateTheTransactionTopicWhenItHasOne(Path example) throws IOException {
    Map<String, String> settings = new ObjectMapper().readValue(example.toFile(), Map.class);
    DeltaCdfSourceConfig config = new DeltaCdfSourceConfig(settings);
    if (!config.provideTransactionMetadata()) {
      return;
    }
    assertThat(settings.get("topic.creation.groups").split(","))
        .as(example.toString())
        .containsExactly("heartbeat", "transaction");
    assertThat(config.transactionTopic("orders-cdf"))
        .as(example.toString())
        .matches(settings.get("topic.creation.transaction.include"))
        .doesNotMatch(settings.get("topic.creation.heartbeat.include"));
    assertThat(settings)
        .containsEntry("topic.creation.transaction.partitions", "1")
        .containsEntry("topic.creation.transaction.cleanup.policy", "delete");
  }
}
