package io.deltacdf.connect.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Named and discovered tables together: lists, topics from paths, and topic collisions. */
class ConnectorTablesTest {

  @TempDir Path lake;

  private String table(String relative) throws IOException {
    Files.createDirectories(lake.resolve(relative).resolve("_delta_log"));
    return lake.resolve(relative).toString();
  }

  private DeltaCdfSourceConfig config(String... pairs) {
    return new DeltaCdfSourceConfig(
        ConnectorConfig.forTables("")
            .with("delta.tables.root", lake.toString())
            .with(pairs)
            .build());
  }

  @Test
  void includeAndExcludeListsMatchThePathBelowTheRoot() throws IOException {
    String orders = table("Tables/dbo/orders");
    String customers = table("Tables/dbo/customers");
    table("Tables/staging/orders_tmp");
    String items = table("hive/shop.db/items");

    ConnectorTables.Scan scan =
        new ConnectorTables(
                config(
                    "delta.tables.include.list", "tables/.*,hive/.*",
                    "delta.tables.exclude.list", ".*/staging/.*",
                    "topic.template", "lake.${schema}.${table}"))
            .scan();

    assertThat(scan.tables()).containsExactly(customers, orders, items);
    assertThat(scan.collisions()).isEmpty();
    DeltaCdfSourceConfig config = config("topic.template", "lake.${schema}.${table}");
    assertThat(config.topicFor(orders)).isEqualTo("lake.dbo.orders");
    assertThat(config.topicFor(items)).isEqualTo("lake.shop.items");
    assertThat(config("topic.template", "${path}").topicFor(orders)).isEqualTo("Tables.dbo.orders");
  }

  @Test
  void aLakehouseWithoutSchemasHasTheDefaultSchema() throws IOException {
    String orders = table("Tables/orders");
    assertThat(config("topic.template", "${schema}.${table}").topicFor(orders))
        .isEqualTo("dbo.orders");
  }

  @Test
  void aDiscoveredTableWhoseTopicIsTakenIsLeftOutNamingBoth() throws IOException {
    String eu = table("eu/orders");
    String us = table("us/orders");

    ConnectorTables.Scan scan = new ConnectorTables(config()).scan();

    assertThat(scan.tables()).containsExactly(eu);
    assertThat(scan.collisions())
        .singleElement()
        .asString()
        .contains(eu, us, "topic 'orders'", "${path}");
    assertThat(new ConnectorTables(config("topic.template", "${path}")).scan().tables())
        .containsExactly(eu, us);
  }

  @Test
  void namedTablesComeFirstAndAreNotDiscoveredTwice() throws IOException {
    String named = table("a/named");
    String found = table("b/found");
    DeltaCdfSourceConfig config =
        new DeltaCdfSourceConfig(
            ConnectorConfig.forTables(named).with("delta.tables.root", lake.toString()).build());

    assertThat(new ConnectorTables(config).scan().tables()).isEqualTo(List.of(named, found));
  }

  @Test
  void aFailedRescanKeepsTheTables() throws IOException {
    String orders = table("orders");
    ConnectorTables tables = new ConnectorTables(config());
    assertThat(tables.refresh()).isTrue();
    assertThat(tables.current()).containsExactly(orders);

    Files.delete(lake.resolve("orders/_delta_log"));
    Files.delete(lake.resolve("orders"));
    Files.delete(lake);
    assertThat(tables.refresh()).as("the root is gone: the scan fails").isFalse();
    assertThat(tables.current()).containsExactly(orders);
  }
}
