package io.deltacdf.connect.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Folders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Named and discovered tables together: lists, topics from paths, and topic collisions. */
class ConnectorTablesTest {

  @TempDir Path lake;

  private String table(String relative) throws IOException {
    Path log = Files.createDirectories(lake.resolve(relative).resolve("_delta_log"));
    Files.writeString(log.resolve("00000000000000000000.json"), "{}");
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
        .containsExactly(new ConnectorTables.TopicCollision("orders", eu, us));
    assertThat(scan.collisions().get(0).refusal()).contains(eu, us, "topic 'orders'", "${path}");
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

    Folders.deleteRecursively(lake);
    assertThat(tables.refresh()).as("the root is gone: the scan fails").isFalse();
    assertThat(tables.current()).containsExactly(orders);
    assertThat(tables.listed()).isTrue();
    assertThat(tables.lastScanError()).contains(lake.toString());
    assertThat(tables.nextScanDelay()).as("retried sooner").isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void rootsNeverListedAreRetriedSoonerAndSaySo() throws IOException {
    ConnectorTables tables = new ConnectorTables(config("delta.tables.rescan.interval.ms", "5000"));
    Folders.deleteRecursively(lake);

    assertThat(tables.refresh()).isFalse();
    assertThat(tables.listed()).as("never listed").isFalse();
    assertThat(tables.nextScanDelay()).isEqualTo(Duration.ofSeconds(1));
    tables.refresh();
    assertThat(tables.nextScanDelay()).isEqualTo(Duration.ofSeconds(2));

    String orders = table("orders");
    assertThat(tables.refresh()).isTrue();
    assertThat(tables.current()).containsExactly(orders);
    assertThat(tables.listed()).isTrue();
    assertThat(tables.failedScansInARow()).isZero();
    assertThat(tables.nextScanDelay()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aStreamingTableKeepsItsTopicWhenATableEarlierInPathOrderAppears() throws IOException {
    String sales = table("sales/orders");
    ConnectorTables tables = new ConnectorTables(config());
    tables.refresh();
    String archive = table("archive/orders");

    assertThat(tables.refresh()).as("nothing changes").isFalse();
    assertThat(tables.current()).containsExactly(sales);
    assertThat(tables.collisions())
        .singleElement()
        .isEqualTo(new ConnectorTables.TopicCollision("orders", sales, archive));
    assertThat(tables.collisionMessages())
        .singleElement()
        .asString()
        .contains(archive + " is left out", sales + " keeps the topic", "${path}");
  }

  @Test
  void aTableWithStoredOffsetsKeepsItsTopicAfterARestart() throws IOException {
    String sales = table("sales/orders");
    String archive = table("archive/orders");

    ConnectorTables restarted = new ConnectorTables(config(), sales::equals);
    restarted.refresh();

    assertThat(restarted.current()).containsExactly(sales);
    assertThat(restarted.collisions())
        .containsExactly(new ConnectorTables.TopicCollision("orders", sales, archive));
  }

  @Test
  void whenOffsetsDoNotDecideTheTableSeenFirstThenPathOrderDoes() throws IOException {
    String sales = table("sales/orders");
    ConnectorTables bothStored = new ConnectorTables(config(), table -> true);
    bothStored.refresh();
    String archive = table("archive/orders");
    bothStored.refresh();
    assertThat(bothStored.current()).as("seen first").containsExactly(sales);

    ConnectorTables noneStored = new ConnectorTables(config());
    noneStored.refresh();
    assertThat(noneStored.current()).as("seen together: path order").containsExactly(archive);
  }

  @Test
  void aFolderWithAnEmptyLogIsATableOnceACommitLandsThere() throws IOException {
    String orders = table("orders");
    Path aborted = Files.createDirectories(lake.resolve("aborted/_delta_log"));
    Files.writeString(aborted.resolve(".00000000000000000000.json.tmp"), "{}");

    ConnectorTables.Scan atValidation = new ConnectorTables(config()).scan();
    assertThat(atValidation.tables()).containsExactly(orders);
    assertThat(atValidation.withoutCommits()).containsExactly(aborted.getParent().toString());

    ConnectorTables tables = new ConnectorTables(config());
    tables.refresh();
    assertThat(tables.current()).containsExactly(orders);
    String written = table("aborted");
    assertThat(tables.refresh()).isTrue();
    assertThat(tables.current()).containsExactly(written, orders);
  }
}
