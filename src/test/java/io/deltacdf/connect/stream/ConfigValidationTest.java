package io.deltacdf.connect.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.SparkHarness;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order of validation: single settings and unknown keys first, then what needs several
 * settings, then the tables; each problem on the key to change.
 */
class ConfigValidationTest {

  private static final String MISSING_TABLE = "/no/such/table";

  private static Map<String, ConfigValue> validate(String... pairs) {
    Map<String, ConfigValue> values = new HashMap<>();
    ConfigValidation.validate(ConnectorConfig.forTables(MISSING_TABLE).with(pairs).build(), "test")
        .configValues()
        .forEach(v -> values.put(v.name(), v));
    return values;
  }

  private static List<String> errors(Map<String, ConfigValue> values, String key) {
    return values.get(key).errorMessages();
  }

  @Test
  void aSettingErrorIsReportedWithUnknownKeysAndTheTablesAreNotOpened() {
    Map<String, ConfigValue> values = validate("batch.max.rows", "many", "start.mod", "secret");

    assertThat(errors(values, "batch.max.rows")).isNotEmpty();
    assertThat(errors(values, "start.mod")).singleElement().asString().contains("start.mode");
    assertThat(values.get("start.mod").value()).as("an unknown key's value").isNull();
    assertThat(errors(values, "delta.table.paths")).isEmpty();
  }

  @Test
  void aProblemOfSeveralSettingsIsReportedBeforeTheTablesAreOpened() {
    Map<String, ConfigValue> values = validate("start.mode", "version");

    assertThat(errors(values, "start.version"))
        .singleElement()
        .asString()
        .contains("start.mode=version");
    assertThat(errors(values, "delta.table.paths")).isEmpty();
  }

  @Test
  void aVariantKeyColumnIsRefusedOnTheKeyColumns(@TempDir Path dir) {
    String table = dir.resolve("events").toString();
    SparkHarness.sql(
        "CREATE TABLE delta.`%s` (id INT, payload VARIANT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        table);
    Map<String, ConfigValue> values = new HashMap<>();
    ConfigValidation.validate(
            ConnectorConfig.forTables(table).with("key.columns", "id,payload").build(), "test")
        .configValues()
        .forEach(v -> values.put(v.name(), v));

    assertThat(errors(values, "key.columns"))
        .singleElement()
        .asString()
        .contains("Key column 'payload'", "variant", "choose other key columns");
    assertThat(errors(values, "delta.table.paths")).isEmpty();
  }

  @Test
  void aPathWithoutATableIsReportedOnThePaths() {
    Map<String, ConfigValue> values = validate();

    assertThat(errors(values, "delta.table.paths"))
        .singleElement()
        .asString()
        .contains(MISSING_TABLE);
  }
}
