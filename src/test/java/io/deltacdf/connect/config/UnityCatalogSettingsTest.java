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
  void everySettingThatReceivesACredentialRefusesPlainHttpInAnyCase() {
    assertThat(config("unity.catalog.uri", "HTTP://uc.internal:8080").crossFieldProblems())
        .containsKey("unity.catalog.uri");
    assertThat(config("unity.catalog.uri", "Http://uc.internal:8080").crossFieldProblems())
        .containsKey("unity.catalog.uri");
    DeltaCdfSourceConfig oauth =
        config(
            "unity.catalog.token", "",
            "unity.catalog.oauth.client.id", "sp-1",
            "unity.catalog.oauth.client.secret", "s3cr3t",
            "unity.catalog.oauth.token.uri", "hTTp://idp.internal/token");
    assertThat(oauth.crossFieldProblems().get("unity.catalog.oauth.token.uri"))
        .singleElement()
        .asString()
        .contains("client id and secret would travel over plain HTTP", "storage.insecure");
    assertThat(config("azure.oauth.authority", "HTTP://login.internal").crossFieldProblems())
        .containsKey("azure.oauth.authority");
    assertThat(
            config(
                    "unity.catalog.uri", "HTTP://uc.internal:8080",
                    "azure.oauth.authority", "http://login.internal",
                    "storage.insecure.http.allowed", "true")
                .crossFieldProblems())
        .doesNotContainKeys("unity.catalog.uri", "azure.oauth.authority");
    assertThat(config("hadoop.fs.s3a.connection.ssl.enabled", "FALSE").crossFieldProblems())
        .containsKey("storage.insecure.http.allowed");
  }

  @Test
  void vendedCredentialsGoOnlyWhereTheCatalogSays() {
    DeltaCdfSourceConfig config =
        config(
            "s3.endpoint", "https://minio.internal:9000",
            "azure.endpoint", "https://azurite.internal:10000",
            "gcs.endpoint", "https://gcs.internal",
            "hadoop.fs.s3a.bucket.lake.endpoint", "https://other.internal",
            "hadoop.fs.unitycatalog.renewal.leadTimeMillis", "2000");
    assertThat(config.stores().hadoopSettings())
        .containsKeys("fs.s3a.endpoint", "fs.azure.abfs.endpoint", "fs.gs.storage.root.url");
    assertThat(config.stores().catalogTableHadoopSettings())
        .doesNotContainKeys(
            "fs.s3a.endpoint",
            "fs.s3a.connection.ssl.enabled",
            "fs.s3a.bucket.lake.endpoint",
            "fs.azure.abfs.endpoint",
            "fs.gs.storage.root.url")
        .containsEntry("fs.unitycatalog.renewal.leadTimeMillis", "2000");
    assertThat(config.stores().catalogTableHadoopOverrides())
        .doesNotContainKey("fs.s3a.bucket.lake.endpoint")
        .containsKey("fs.unitycatalog.renewal.leadTimeMillis");
    // A test catalog in front of an emulator: only with the insecure switch.
    DeltaCdfSourceConfig test =
        config(
            "s3.endpoint", "http://127.0.0.1:9090",
            "storage.insecure.http.allowed", "true");
    assertThat(test.stores().catalogTableHadoopSettings())
        .containsEntry("fs.s3a.endpoint", "http://127.0.0.1:9090");
  }

  @Test
  void errorsAboutACatalogTableLandOnTheCatalogSettings() {
    DeltaCdfSourceConfig config = config();
    assertThat(config.tableSettingFor("main.sales.orders")).isEqualTo("unity.catalog.tables");
    assertThat(config.tableSettingFor("s3a://bucket/lake/orders")).isEqualTo("delta.table.paths");
    assertThat(config.stores().credentialSettingFor("main.sales.orders"))
        .isEqualTo("unity.catalog.token");
    assertThat(config.stores().endpointSettingFor("main.sales.orders"))
        .isEqualTo("unity.catalog.uri");
    DeltaCdfSourceConfig oauth =
        config(
            "unity.catalog.token", "",
            "unity.catalog.oauth.client.id", "sp-1",
            "unity.catalog.oauth.client.secret", "s3cr3t");
    assertThat(oauth.stores().credentialSettingFor("main.sales.orders"))
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
