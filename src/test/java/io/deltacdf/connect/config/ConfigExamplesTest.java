package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example in config-examples/ is a configuration the connector accepts as written. */
class ConfigExamplesTest {

  /** Settings that belong to Connect or its converters rather than to this connector. */
  private static final List<String> CONNECT_PREFIXES =
      List.of("connector.class", "tasks.max", "key.converter", "value.converter", "header.converter",
          "transforms", "exactly.once.support", "transaction.boundary", "errors.", "name");

  static Stream<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("config-examples"))) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  @SuppressWarnings("unchecked")
  void isAcceptedAsWritten(Path example) throws IOException {
    Map<String, String> settings = new ObjectMapper().readValue(example.toFile(), Map.class);
    Set<String> ours = DeltaCdfSourceConfig.configDef().names();
    Map<String, String> connectorSettings = new HashMap<>();
    settings.forEach(
        (key, value) -> {
          if (CONNECT_PREFIXES.stream().noneMatch(key::startsWith)) {
            assertThat(ours.contains(key) || key.startsWith(DeltaCdfSourceConfig.HADOOP_PREFIX))
                .as("%s: unknown setting %s", example, key)
                .isTrue();
            connectorSettings.put(key, value);
          }
        });
    Map<String, List<String>> problems =
        new HashMap<>(new DeltaCdfSourceConfig(connectorSettings).crossFieldProblems());
    // The example's key file lives on the user's workers, not here.
    problems.remove("gcs.keyfile.path");
    assertThat(problems).as(example.toString()).isEmpty();
  }
}
