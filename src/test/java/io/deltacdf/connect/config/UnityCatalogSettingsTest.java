package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.testing.ConnectorConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tables named in Unity Catalog: their names in topics and offsets, and settings that clash. */
class UnityCatalogSettingsTest {

  private static DeltaCdfSourceConfig config(String... keyValues) {
    return new DeltaCdfSourceConfig(
        ConnectorConfig.forTables("s3a://bucket/lake/orders")
            .with(
                "unity.catalog.uri", "https://adb-1.2.azuredatabricks.net/",
                "unity.catalog.tables", "main.sales.orders, main.hr.people",
                "unity.catalog.token", "dapi-secret")
            .with(keyValues)
            .build());
  }

  @Test
  void catalogTablesStreamBesidePathsAndTheirTopicsUseTheCatalogName() {
    DeltaCdfSourceConfig config =
        config(
            "topic.template",
            "cdc.${schema}.${table}",
            "unity.catalog.tables",
            "main.sales.customers");
    assertThat(config.namedTables())
        .containsExactly("s3a://bucket/lake/orders", "main.sales.customers");
    assertThat(config.topicFor("main.sales.customers")).isEqualTo("cdc.sales.customers");
    assertThat(config("topic.template", "${path}").topicFor("main.hr.people"))
        .isEqualTo("main.hr.people");
    assertThat(config.isCatalogTable("main.sales.customers")).isTrue();
    assertThat(config.isCatalogTable("s3a://bucket/lake/orders")).isFalse();
    assertThat(config.isConfiguredTable("main.sales.customers")).isTrue();
    assertThat(config.crossFieldProblems()).isEmpty();
  }

  @Test
  void errorsAboutACatalogTableLandOnTheCatalogSettings() {
    DeltaCdfSourceConfig config = config();
    assertThat(config.tableSettingFor("main.sales.orders")).isEqualTo("unity.catalog.tables");
    assertThat(config.tableSettingFor("s3a://bucket/lake/orders")).isEqualTo("delta.table.paths");
    assertThat(config.credentialSettingFor("main.sales.orders")).isEqualTo("unity.catalog.token");
    assertThat(config.endpointSettingFor("main.sales.orders")).isEqualTo("unity.catalog.uri");
    DeltaCdfSourceConfig oauth =
        config(
            "unity.catalog.token", "",
            "unity.catalog.oauth.client.id", "sp-1",
            "unity.catalog.oauth.client.secret", "s3cr3t");
    assertThat(oauth.credentialSettingFor("main.sales.orders"))
        .isEqualTo("unity.catalog.oauth.client.secret");
    assertThat(oauth.unityCatalog().oauthTokenUri())
        .isEqualTo("https://adb-1.2.azuredatabricks.net/oidc/v1/token");
    assertThat(oauth.unityCatalog().toString()).doesNotContain("s3cr3t");
    assertThat(config().unityCatalog().toString()).doesNotContain("dapi-secret");
    // Collisions between a path and a catalog name are refused like those between paths.
    assertThat(config("unity.catalog.tables", "main.sales.orders").crossFieldProblems())
        .containsKey("topic.template");
  }

  @Test
  void badCatalogSettingsSayWhatToFix() {
    Map<String, List<String>> problems =
        config(
                "unity.catalog.tables", "main.orders, main.sales.orders",
                "delta.table.paths", "main.sales.items",
                "unity.catalog.oauth.client.id", "sp-1")
            .crossFieldProblems();
    assertThat(problems.get("unity.catalog.tables"))
        .singleElement()
        .asString()
        .contains("'main.orders'", "catalog.schema.table");
    assertThat(problems.get("delta.table.paths"))
        .singleElement()
        .asString()
        .contains("'main.sales.items'", "unity.catalog.tables");
    assertThat(problems.get("unity.catalog.token")).singleElement().asString().contains("not both");

    assertThat(config("unity.catalog.uri", "").crossFieldProblems().get("unity.catalog.uri"))
        .singleElement()
        .asString()
        .contains("required");
    assertThat(
            config("unity.catalog.uri", "http://uc.internal:8080")
                .crossFieldProblems()
                .get("unity.catalog.uri"))
        .singleElement()
        .asString()
        .contains("plain HTTP", "storage.insecure.http.allowed");
    assertThat(
            config(
                    "unity.catalog.uri",
                    "http://uc.internal:8080",
                    "storage.insecure.http.allowed",
                    "true")
                .crossFieldProblems())
        .doesNotContainKey("unity.catalog.uri");
    assertThat(config("unity.catalog.token", "").crossFieldProblems().get("unity.catalog.token"))
        .singleElement()
        .asString()
        .contains("needs a sign-in");
    assertThat(
            config("unity.catalog.token", "", "unity.catalog.oauth.client.secret", "x")
                .crossFieldProblems())
        .containsKey("unity.catalog.oauth.client.id");
  }
}
