package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.DeltaCdfSourceConnector;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.runtime.SourceConnectorConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** validate() reports settings nobody reads, on that key, instead of ignoring them. */
class UnknownKeysTest {

  @TempDir Path tables;

  @Test
  void aMisspeltKeyIsAnErrorThatNamesTheIntendedKey() {
    assertThat(errorsOn("start.mod", with("start.mod", "earliest")))
        .singleElement()
        .asString()
        .contains("Unknown setting 'start.mod'", "did you mean 'start.mode'?");
  }

  @Test
  void aDebeziumHabitPointsToOurNameForTheSameSetting() {
    assertThat(errorsOn("time.precision.mode", with("time.precision.mode", "adaptive")))
        .singleElement()
        .asString()
        .contains("did you mean 'temporal.precision.mode'?");
  }

  @Test
  void aKeyLikeNoOtherIsReportedWithoutASuggestion() {
    assertThat(errorsOn("snapshot.locking.mode", with("snapshot.locking.mode", "none")))
        .singleElement()
        .asString()
        .contains("Unknown setting 'snapshot.locking.mode'", "config.unknown.keys=ignore")
        .doesNotContain("did you mean");
  }

  @Test
  void connectsOwnKeysAndHadoopSettingsAreNeverUnknown() {
    Map<String, String> settings = with();
    SourceConnectorConfig.configDef().names().forEach(key -> settings.put(key, "x"));
    for (String key :
        List.of(
            "key.converter.schemas.enable",
            "value.converter.schema.registry.url",
            "transforms.unwrap.type",
            "predicates.isTombstone.type",
            "errors.deadletterqueue.topic.name",
            "topic.creation.default.replication.factor",
            "topic.creation.compacted.cleanup.policy",
            "producer.override.linger.ms",
            "consumer.override.max.poll.records",
            "admin.override.request.timeout.ms",
            "hadoop.fs.s3a.connection.maximum")) {
      settings.put(key, "x");
    }

    Map<String, ConfigValue> values = validate(settings);

    settings.keySet().stream()
        .filter(values::containsKey)
        .forEach(
            key ->
                assertThat(values.get(key).errorMessages())
                    .as(key)
                    .noneMatch(m -> m.contains("Unknown setting")));
  }

  @Test
  void ignoreTurnsTheCheckOff() {
    Map<String, String> settings = with("start.mod", "earliest", "config.unknown.keys", "ignore");
    assertThat(validate(settings)).doesNotContainKey("start.mod");
  }

  @Test
  void theValueOfAnUnknownKeyIsNotEchoed() {
    Map<String, ConfigValue> values = validate(with("s3.secret.acess.key", "hunter2"));
    ConfigValue misspelt = values.get("s3.secret.acess.key");
    assertThat(misspelt.value()).isNull();
    assertThat(misspelt.errorMessages())
        .singleElement()
        .asString()
        .contains("did you mean 's3.secret.access.key'?")
        .doesNotContain("hunter2");
  }

  private List<String> errorsOn(String key, Map<String, String> settings) {
    return Optional.ofNullable(validate(settings).get(key))
        .map(ConfigValue::errorMessages)
        .orElse(List.of());
  }

  private static Map<String, ConfigValue> validate(Map<String, String> settings) {
    Map<String, ConfigValue> byName = new HashMap<>();
    new DeltaCdfSourceConnector()
        .validate(settings)
        .configValues()
        .forEach(v -> byName.put(v.name(), v));
    return byName;
  }

  private Map<String, String> with(String... keyValues) {
    // Without topic creation: the keys checked are the ones each test names.
    return ConnectorConfig.forTables(tables.resolve("orders").toString())
        .withoutTopicCreation()
        .name("orders-cdf")
        .with(keyValues)
        .build();
  }
}
