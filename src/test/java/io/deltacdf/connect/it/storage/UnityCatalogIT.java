package io.deltacdf.connect.it.storage;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.delta.CatalogTables;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.it.storage.testing.Azurite;
import io.deltacdf.connect.it.storage.testing.CatalogManagedTables;
import io.deltacdf.connect.it.storage.testing.S3Gate;
import io.deltacdf.connect.it.storage.testing.UnityCatalogTestServer;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.Closing;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.S3Mock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables named in Unity Catalog, read with the credentials the catalog vends. The catalog is {@link
 * UnityCatalogTestServer}, built from Unity Catalog's published API spec (no real catalog runs
 * here); the store is Azurite, which accepts only what the catalog vends: each table's files lie in
 * their own container, the connector holds no storage key, and a vended SAS reads only its table's
 * container until it expires.
 */
class UnityCatalogIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String[] COLUMNS = {"id", "name", "amount"};
  private static final String TOKEN = "dapi-" + UUID.randomUUID();
  private static final String CLIENT_ID = "sp-" + UUID.randomUUID();
  private static final String CLIENT_SECRET = "secret-" + UUID.randomUUID();
  // Spark's JVM caches file systems by container@account: unique per run.
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String S3_BUCKET = "uc-" + RUN;

  private static Azurite azurite;
  private static S3Mock s3;
  private static S3Gate s3Gate;
  private static UnityCatalogTestServer catalog;
  private static KafkaCluster cluster;

  @BeforeAll
  static void start() {
    azurite = Azurite.launch();
    azurite.configure(spark());
    catalog = UnityCatalogTestServer.start(azurite.accountKey());
    catalog.addToken(TOKEN);
    catalog.addServicePrincipal(CLIENT_ID, CLIENT_SECRET);
    s3 = S3Mock.start(S3_BUCKET);
    s3.configure(spark());
    // The connector reaches S3Mock through a gate that lets only vended credentials through.
    s3Gate = S3Gate.start(s3.endpoint());
    s3Gate.requireCredentials(catalog::allowsS3);
    cluster = KafkaCluster.builder().start();
  }

  @AfterAll
  static void stop() {
    Closing.inOrder(cluster, catalog, s3Gate, s3, azurite);
  }

  @Test
  void aTableNamedInTheCatalogStreamsLikeSparksTableChanges() {
    String path = table("main.sales.orders", "ucorders" + RUN);
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cy', 30)", path);
    Map<String, String> config = config("main.sales.orders");
    cluster.rest().deploy("uc-orders", config, WAIT);
    try {
      assertThat(ChangeDescriptions.ofRecords(read("uc.sales.orders", 3), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS));

      sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
      sql("DELETE FROM delta.`%s` WHERE id = 3", path);
      List<String> expected = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
      assertThat(expected).hasSize(3 + 2 + 1 + 1);
      List<ConsumerRecord<byte[], byte[]>> all = read("uc.sales.orders", expected.size());
      assertThat(ChangeDescriptions.ofRecords(all, COLUMNS))
          .containsExactlyInAnyOrderElementsOf(expected);
      assertThat(catalog.credentialRequestTables()).contains("main.sales.orders");

      // The offsets name the table as the catalog does, and carry the catalog's id of it.
      assertThat(cluster.rest().get("/connectors/uc-orders/offsets").body().toString())
          .contains("main.sales.orders")
          .contains("\"catalog_table_id\":\"" + catalog.tableIdOf("main.sales.orders") + "\"");
      String status = cluster.rest().status("uc-orders").toString();
      assertThat(status).doesNotContain(TOKEN);
      catalog.vendedSasTokens().forEach(sas -> assertThat(status).doesNotContain(sas));
    } finally {
      cluster.rest().delete("uc-orders");
    }
  }

  @Test
  void aServicePrincipalSignsInWithOAuth() {
    String path = table("main.sales.returns", "ucreturns" + RUN);
    sql("INSERT INTO delta.`%s` VALUES (7, 'g', 70)", path);
    Map<String, String> config = config("main.sales.returns");
    config.remove("unity.catalog.token");
    config.put("unity.catalog.oauth.client.id", CLIENT_ID);
    config.put("unity.catalog.oauth.client.secret", CLIENT_SECRET);
    cluster.rest().deploy("uc-oauth", config, WAIT);
    try {
      assertThat(ChangeDescriptions.ofRecords(read("uc.sales.returns", 1), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS));
    } finally {
      cluster.rest().delete("uc-oauth");
    }
  }

  /**
   * Credentials that live 5 s and are renewed 2 s before they expire, while one version of six
   * files is read a few rows at a time: the renewals fall between the files of the version, and
   * every row arrives once.
   */
  @Test
  void renewalsInTheMiddleOfAVersionLoseNothing() throws InterruptedException {
    String path = table("main.sales.events", "ucevents" + RUN);
    append(path, 600, 6);
    catalog.credentialLifetime(Duration.ofSeconds(5));
    int before = catalog.credentialRequests();
    List<Long> ids = new ArrayList<>();
    try (DeltaTable table = open("main.sales.events");
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(1))) {
      ChangeBatch batch;
      while ((batch = feed.next(40)) != null) {
        for (ChangeRow row : batch.rows()) {
          assertThat(row.version()).isEqualTo(1);
          ids.add((Long) row.values()[0]);
        }
        Thread.sleep(500);
      }
    } finally {
      catalog.credentialLifetime(Duration.ofHours(1));
    }
    assertThat(catalog.credentialRequests() - before).as("credentials vended").isGreaterThan(2);
    assertThat(ids).containsExactlyInAnyOrderElementsOf(sparkIds(path, 1));
  }

  /**
   * A credential the catalog will not renew: once it expires the store refuses it, so the read
   * fails, as a passing outage (the catalog answers 503); when the catalog answers again, reading
   * resumes where it stopped and nothing is lost.
   */
  @Test
  void anExpiredCredentialThatIsNotRenewedFailsTheReadUntilTheCatalogAnswers()
      throws InterruptedException {
    String path = table("main.sales.clicks", "ucclicks" + RUN);
    append(path, 300, 3);
    catalog.credentialLifetime(Duration.ofSeconds(4));
    List<Long> ids = new ArrayList<>();
    ChangePosition stoppedAt;
    try (DeltaTable table = open("main.sales.clicks");
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(1))) {
      feed.next(100).rows().forEach(row -> ids.add((Long) row.values()[0]));
      stoppedAt = feed.position();
      catalog.refuseRenewals(true);
      Thread.sleep(5_000);
      assertThatThrownBy(() -> feed.next(100))
          .isInstanceOf(DeltaFeedException.class)
          .satisfies(
              e -> {
                DeltaFeedException error = (DeltaFeedException) e;
                assertThat(error.kind()).isEqualTo(DeltaFeedException.Kind.TRANSIENT);
                assertThat(error.getMessage()).contains("did not renew", "503");
              });
    } finally {
      catalog.refuseRenewals(false);
      catalog.credentialLifetime(Duration.ofHours(1));
    }
    try (DeltaTable table = open("main.sales.clicks");
        DeltaChangeFeed feed = table.openFeed(stoppedAt)) {
      ChangeBatch batch;
      while ((batch = feed.next(100)) != null) {
        batch.rows().forEach(row -> ids.add((Long) row.values()[0]));
      }
    }
    assertThat(ids).containsExactlyInAnyOrderElementsOf(sparkIds(path, 1));
  }

  /**
   * A table on S3 (named {@code s3://} as Databricks does): the catalog vends AWS session
   * credentials for its bucket, which the gate in front of S3Mock accepts, and nothing else.
   */
  @Test
  void anS3TableIsReadWithTheSessionCredentialsVendedForIt() {
    String path = "s3a://" + S3_BUCKET + "/tables/items";
    createTable(path);
    append(path, 200, 2);
    catalog.addS3Table("main.s3.items", "s3://" + S3_BUCKET + "/tables/items");

    List<Long> ids = new ArrayList<>();
    try (DeltaTable table = open("main.s3.items");
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(1))) {
      ChangeBatch batch;
      while ((batch = feed.next(100)) != null) {
        batch.rows().forEach(row -> ids.add((Long) row.values()[0]));
      }
    }
    assertThat(ids).containsExactlyInAnyOrderElementsOf(sparkIds(path, 1));
    assertThat(catalog.credentialRequestTables()).contains("main.s3.items");

    // S3Mock's own keys, through the same gate: refused.
    Map<String, String> ownKeys = new HashMap<>(s3.hadoopSettings());
    ownKeys.put("fs.s3a.endpoint", s3Gate.endpoint());
    try (DeltaTable table = DeltaTable.open(path, ownKeys, false)) {
      assertThatThrownBy(() -> table.latestSnapshot().version())
          .isInstanceOf(DeltaFeedException.class)
          .satisfies(
              e ->
                  assertThat(((DeltaFeedException) e).kind())
                      .isEqualTo(DeltaFeedException.Kind.ACCESS_DENIED));
    }
  }

  /**
   * A catalog-managed table (reader feature catalogManaged): versions 1 and 2 published, 3 and 4
   * ratified by the catalog but only staged, and 5 staged but not yet ratified. Its changes up to 4
   * equal Spark's table_changes of the same commits written by path; version 5 is not a commit
   * until the catalog ratifies it, and then streams too. Read by path, the table is refused.
   */
  @Test
  void aCatalogManagedTableStreamsTheCommitsItsCatalogRatified() throws Exception {
    String path =
        java.nio.file.Files.createTempDirectory("uc-managed").resolve("orders").toString();
    createTable(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cy', 30)", path);
    sql("UPDATE delta.`%s` SET name = 'bobby' WHERE id = 2", path);
    sql("DELETE FROM delta.`%s` WHERE id = 3", path);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT 1 AS id, 'anna' AS name, 11 AS amount"
            + " UNION ALL SELECT 4, 'dee', 40) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        path);
    List<String> throughFour = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
    long rowsThroughFour = sparkIds(path, 1, 4).size();
    sql("INSERT INTO delta.`%s` VALUES (5, 'eve', 50)", path);
    List<String> all = ChangeDescriptions.ofSparkFeed(path, 1, COLUMNS);
    List<CatalogManagedTables.StagedCommit> staged = CatalogManagedTables.convert(path, 3);
    assertThat(staged)
        .extracting(CatalogManagedTables.StagedCommit::version)
        .containsExactly(3L, 4L, 5L);
    catalog.addLocalTable("main.managed.orders", "file://" + path);
    for (CatalogManagedTables.StagedCommit commit : staged.subList(0, 2)) {
      catalog.ratify(
          "main.managed.orders", commit.version(), commit.file(), commit.inCommitTimestamp());
    }

    try (DeltaTable byPath = DeltaTable.open(path, Map.of(), false)) {
      assertThatThrownBy(() -> byPath.latestSnapshot().version())
          .isInstanceOf(DeltaFeedException.class)
          .hasMessageContaining("catalog-managed")
          .hasMessageContaining("unity.catalog.tables");
    }

    try (DeltaTable table = open("main.managed.orders");
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(1))) {
      int rows = 0;
      ChangeBatch batch;
      while ((batch = feed.next(100)) != null) {
        rows += batch.rows().size();
      }
      assertThat(rows).as("rows read through the catalog").isEqualTo(rowsThroughFour);
    }

    Map<String, String> config = config("main.managed.orders");
    config.put("start.mode", "earliest");
    cluster.rest().deploy("uc-managed", config, WAIT);
    try {
      assertThat(
              ChangeDescriptions.ofRecords(read("uc.managed.orders", throughFour.size()), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(throughFour);
      // Version 5 lies staged, unratified: it is no commit yet.
      assertThat(
              TopicReader.readUntilQuiet(
                  cluster.bootstrapServers(),
                  "uc.managed.orders",
                  Duration.ofSeconds(3),
                  WAIT,
                  false))
          .hasSize(throughFour.size());

      CatalogManagedTables.StagedCommit last = staged.get(2);
      catalog.ratify("main.managed.orders", last.version(), last.file(), last.inCommitTimestamp());
      assertThat(ChangeDescriptions.ofRecords(read("uc.managed.orders", all.size()), COLUMNS))
          .containsExactlyInAnyOrderElementsOf(all);
    } finally {
      cluster.rest().delete("uc-managed");
    }
  }

  @Test
  void validateNamesWhatTheCatalogRefusedAndWhatToGrant() {
    String path = table("main.hr.salaries", "ucsalaries" + RUN);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a', 1)", path);
    catalog.denyExternalUse("main.hr.salaries");
    catalog.addNonDeltaTable("main.raw.landing", Azurite.uri("ucraw" + RUN, "tables/landing"));

    Map<String, List<String>> denied = errors(config("main.hr.salaries"), "v1");
    assertThat(denied.get("unity.catalog.token"))
        .singleElement()
        .asString()
        .contains("main.hr.salaries", "PERMISSION_DENIED", "EXTERNAL USE SCHEMA on main.hr");

    Map<String, List<String>> missing = errors(config("main.sales.nosuch"), "v2");
    assertThat(missing.get("unity.catalog.tables"))
        .singleElement()
        .asString()
        .contains("main.sales.nosuch", "TABLE_DOES_NOT_EXIST");

    Map<String, List<String>> notDelta = errors(config("main.raw.landing"), "v3");
    assertThat(notDelta.get("unity.catalog.tables"))
        .singleElement()
        .asString()
        .contains("main.raw.landing", "PARQUET", "not a Delta table");

    Map<String, String> wrongToken = config("main.hr.salaries");
    wrongToken.put("unity.catalog.token", "dapi-wrong");
    Map<String, List<String>> refused = errors(wrongToken, "v4");
    assertThat(refused.get("unity.catalog.token"))
        .singleElement()
        .asString()
        .contains("401", "unity.catalog.token")
        .doesNotContain("dapi-wrong");
  }

  /** A Delta table with change data feed in its own container, registered in the catalog. */
  private static String table(String fullName, String container) {
    String path =
        Azurite.uri(container, "tables/" + fullName.substring(fullName.lastIndexOf('.') + 1));
    createTable(path);
    catalog.addTable(fullName, path, container);
    return path;
  }

  /**
   * The connector's settings: the catalog and its token, Azurite's endpoint, and no storage key.
   */
  private static Map<String, String> config(String table) {
    return ConnectorConfig.withoutTables()
        .with("unity.catalog.tables", table)
        .with("unity.catalog.uri", catalog.uri())
        .with("unity.catalog.token", TOKEN)
        .with("azure.endpoint", azurite.endpoint())
        .with("storage.insecure.http.allowed", "true")
        .with("s3.endpoint", s3Gate.endpoint())
        .with("s3.path.style.access", "true")
        .with("s3.region", "us-east-1")
        // Azurite is a Blob store without hierarchical namespace, where the catalog's settings
        // say ADLS Gen2 with one; ABFS takes a SAS provider there through its Blob client only.
        .with("hadoop.fs.azure.account.hns.enabled", "false")
        .with("hadoop.fs.azure.fns.account.service.type", "BLOB")
        // Renew 2 s before expiry (30 s by default), for credentials that live seconds here.
        .with("hadoop.fs.unitycatalog.renewal.leadTimeMillis", "2000")
        .topicTemplate("uc.${schema}.${table}")
        .keyColumns("id")
        .pollIntervalMs(200)
        .build();
  }

  private static DeltaTable open(String table) {
    var settings = new io.deltacdf.connect.config.DeltaCdfSourceConfig(config(table));
    return CatalogTables.withToken(catalog.uri(), TOKEN, settings.stores().hadoopSettings())
        .open(
            table, settings.stores().hadoopSettings(), settings.stores().hadoopOverrides(), false);
  }

  /** An empty table with change data feed and in-commit timestamps (which stores need). */
  private static void createTable(String path) {
    CdfTables.create(
        path, "id BIGINT, name STRING, amount BIGINT", "delta.enableInCommitTimestamps", "true");
  }

  /** One commit of {@code rows} inserts, in {@code files} data files. */
  private static void append(String path, int rows, int files) {
    spark()
        .range(0, rows, 1, files)
        .selectExpr("id", "concat('n', id) AS name", "id AS amount")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
  }

  private static List<Long> sparkIds(String path, long version) {
    return sparkIds(path, version, version);
  }

  private static List<Long> sparkIds(String path, long from, long to) {
    return spark()
        .sql(String.format("SELECT id FROM table_changes_by_path('%s', %d, %d)", path, from, to))
        .collectAsList()
        .stream()
        .map(row -> row.getLong(0))
        .toList();
  }

  private static Map<String, List<String>> errors(Map<String, String> config, String name) {
    Map<String, String> named = new HashMap<>(config);
    named.put("name", "uc-validate-" + name);
    JsonNode validated = cluster.rest().validate("DeltaCdfSourceConnector", named);
    System.out.println("validate " + name + ": " + ConnectRest.errorsByKey(validated));
    assertThat(validated.toString()).doesNotContain(TOKEN);
    return ConnectRest.errorsByKey(validated);
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(cluster.bootstrapServers(), topic, count, WAIT);
  }
}
