package io.deltacdf.connect.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.SparkHarness;
import java.nio.file.Path;
import java.util.Collections;
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

  /** What validation reports on {@code config}, by key. */
  private static Map<String, ConfigValue> validateTable(ConnectorConfig config) {
    Map<String, ConfigValue> values = new HashMap<>();
    ConfigValidation.validate(config.build(), "test")
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
  void shardsAreRefusedOnTheSettingForATableWithoutKeyColumns() {
    assertThat(errors(validate("table.shards", "2"), "table.shards"))
        .singleElement()
        .asString()
        .contains("table " + MISSING_TABLE + " has no key columns", "order", "key.columns");
    assertThat(
            errors(
                validate("table.shards", "2", "key.columns.by.table", "orders:id"), "table.shards"))
        .singleElement()
        .asString()
        .contains("has no key columns");
    assertThat(errors(validate("table.shards", "2", "key.columns", "id"), "table.shards"))
        .isEmpty();
    assertThat(
            errors(
                validate("table.shards", "2", "key.columns.by.table", "table:id"), "table.shards"))
        .isEmpty();
    assertThat(errors(validate("table.shards", "1"), "table.shards")).isEmpty();
  }

  @Test
  void aVariantKeyColumnIsRefusedOnTheKeyColumns(@TempDir Path dir) {
    String table = dir.resolve("events").toString();
    SparkHarness.sql(
        "CREATE TABLE delta.`%s` (id INT, payload VARIANT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        table);
    Map<String, ConfigValue> values =
        validateTable(ConnectorConfig.forTables(table).with("key.columns", "id,payload"));

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

  @Test
  void columnRulesThatDoNotFitTheKeysAreRefusedBeforeTheTablesAreOpened() {
    Map<String, ConfigValue> values =
        validate(
            "key.columns", "id,email",
            "column.exclude.list", "table:e.*",
            "column.mask.null.list", "table:id",
            "column.mask.hash.list", "table:ssn",
            "column.mask.truncate.list", "table:name");

    assertThat(errors(values, "column.exclude.list"))
        .singleElement()
        .asString()
        .contains("Key column 'email'", "table:email");
    assertThat(errors(values, "column.mask.null.list"))
        .singleElement()
        .asString()
        .contains("Key column 'id'", "hash it");
    assertThat(errors(values, "column.mask.hash.salt")).singleElement().asString().contains("salt");
    assertThat(errors(values, "column.mask.truncate.chars"))
        .singleElement()
        .asString()
        .contains("1");
    assertThat(errors(values, "delta.table.paths")).as("tables not opened").isEmpty();
  }

  @Test
  void bothColumnListsAndABadPatternAreRefusedOnTheirKeys() {
    assertThat(
            errors(
                validate("column.include.list", "table:a(", "column.mask.hash.list", "[x"),
                "column.include.list"))
        .singleElement()
        .asString()
        .contains("'table:a('", "not a regular expression");
    assertThat(
            errors(
                validate("column.include.list", "table:a", "column.exclude.list", "table:b"),
                "column.exclude.list"))
        .singleElement()
        .asString()
        .contains("not both");
  }

  @Test
  void aMaskOnAColumnItCannotMaskIsRefusedOnThatMask(@TempDir Path dir) {
    String table = dir.resolve("accounts").toString();
    SparkHarness.sql(
        "CREATE TABLE delta.`%s` (id INT, active BOOLEAN) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        table);
    Map<String, ConfigValue> values =
        validateTable(
            ConnectorConfig.forTables(table)
                .with("column.mask.hash.list", "accounts:active", "column.mask.hash.salt", "s"));

    assertThat(errors(values, "column.mask.hash.list"))
        .singleElement()
        .asString()
        .contains("'active'", "boolean", "hash mask");
    assertThat(errors(values, "delta.table.paths")).isEmpty();
  }

  @Test
  void aRowFilterThatDoesNotParseOrFitIsRefusedOnTheFilter(@TempDir Path dir) {
    assertThat(errors(validate("row.filter", "region = 'eu' AND"), "row.filter"))
        .singleElement()
        .asString()
        .contains("Expected a partition column, found the end of the filter");

    String table = dir.resolve("orders").toString();
    SparkHarness.sql(
        "CREATE TABLE delta.`%s` (id INT, region STRING) USING delta PARTITIONED BY (region)"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        table);
    Map<String, ConfigValue> values =
        validateTable(ConnectorConfig.forTables(table).with("row.filter", "id = 3"));

    assertThat(errors(values, "row.filter"))
        .singleElement()
        .asString()
        .contains("'id', which is not a partition column", "region");
    assertThat(errors(values, "delta.table.paths")).isEmpty();
  }

  @Test
  void aFilterNestedTooDeepIsRefusedOnTheFilterNotWithAStackOverflow() {
    String nots = "NOT ".repeat(100_000) + "region = 'eu'";
    assertThat(errors(validate("row.filter", nots), "row.filter"))
        .singleElement()
        .asString()
        .contains("nests more than 100 levels of NOT and parentheses")
        .hasSizeLessThan(1_000);
    String parens = "(".repeat(100_000) + "region = 'eu'" + ")".repeat(100_000);
    assertThat(errors(validate("row.filter", parens), "row.filter"))
        .singleElement()
        .asString()
        .contains("nests more than 100 levels");
    String chain = String.join(" AND ", Collections.nCopies(100_000, "region = 'eu'"));
    assertThat(errors(validate("row.filter", chain), "row.filter"))
        .singleElement()
        .asString()
        .contains("more than 1000 conditions");
    String deepest = "NOT ".repeat(50) + "(".repeat(50) + "region = 'eu'" + ")".repeat(50);
    assertThat(errors(validate("row.filter", deepest), "row.filter")).isEmpty();
  }

  @Test
  void anIncludeListThatKeepsNoColumnOfATableIsRefused(@TempDir Path dir) {
    String table = dir.resolve("invoices").toString();
    SparkHarness.sql(
        "CREATE TABLE delta.`%s` (id INT, total INT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        table);
    Map<String, ConfigValue> values =
        validateTable(ConnectorConfig.forTables(table).with("column.include.list", "orders:.*"));

    // The pattern names no column of any table either: both are said.
    assertThat(errors(values, "column.include.list"))
        .hasSize(2)
        .anySatisfy(e -> assertThat(e).contains("No column of table " + table, "invoices:<column>"))
        .anySatisfy(e -> assertThat(e).contains("Pattern 'orders:.*' matches no column"));
  }
}
