package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A catalogue of bad configurations, each fed through the REST API's validate endpoint and through
 * connector creation: the error must land on the setting to change, with a message that says what
 * is wrong. The table of messages in docs/troubleshooting.md is built from these messages.
 */
class BadConfigCatalogueIT {

  private static final Path DIR = createDir();
  private static final String GOOD = DIR.resolve("good").toString();
  private static final String NO_CDF = DIR.resolve("no-cdf").toString();
  private static final String LATE_CDF = DIR.resolve("late-cdf").toString();
  private static final String ODD_NAMES = DIR.resolve("odd-names").toString();
  private static final String ORDERS = DIR.resolve("orders").toString();
  private static final String PLAIN_FOLDER = DIR.resolve("plain-folder").toString();
  @RegisterExtension static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder());

  @BeforeAll
  static void setUp() throws Exception {
    CdfTables.keyed(GOOD);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", GOOD);
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, `a-b` STRING, `a.b` STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.columnMapping.mode'='name')",
        ODD_NAMES);
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, items ARRAY<STRUCT<card: STRING>>) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        ORDERS);
    sql("CREATE TABLE delta.`%s` (id BIGINT) USING delta", NO_CDF);
    sql("CREATE TABLE delta.`%s` (id BIGINT) USING delta", LATE_CDF);
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('delta.enableChangeDataFeed'='true')", LATE_CDF);
    Files.createDirectories(Path.of(PLAIN_FOLDER));
    Files.writeString(Path.of(PLAIN_FOLDER, "data.csv"), "id\n1\n");
  }

  static Stream<Arguments> badConfigs() {
    String future = Long.toString(System.currentTimeMillis() + 86_400_000L);
    return Stream.of(
        bad(
            "no table paths",
            ConnectorConfig.withoutTables(),
            "delta.table.paths",
            "List at least one Delta table"),
        bad(
            "empty table paths",
            paths(" "),
            "delta.table.paths",
            "a folder of tables in delta.tables.root"),
        bad(
            "table root that does not exist",
            paths("").with("delta.tables.root", DIR.resolve("no-lake").toString()),
            "delta.tables.root",
            "does not exist"),
        bad(
            "table pattern that does not compile",
            paths(GOOD).with("delta.tables.include.list", "sales/(orders"),
            "delta.tables.include.list",
            "not a regular expression"),
        bad(
            "column pattern that does not compile",
            paths(GOOD).with("column.exclude.list", "good:[name"),
            "column.exclude.list",
            "not a regular expression"),
        bad(
            "row filter on a column that is no partition column",
            paths(GOOD).with("row.filter", "name = 'a'"),
            "row.filter",
            "'name', which is not a partition column"),
        bad(
            "row filter that does not parse",
            paths(GOOD).with("row.filter", "name = "),
            "row.filter",
            "Expected a literal"),
        bad(
            "mask pattern with a typo",
            paths(GOOD).with("column.mask.hash.list", "good:nmae", "column.mask.hash.salt", "s"),
            "column.mask.hash.list",
            "Pattern 'good:nmae' matches no column"),
        bad(
            "exclude pattern with a typo",
            paths(GOOD).with("column.exclude.list", "good:nmae"),
            "column.exclude.list",
            "Pattern 'good:nmae' matches no column"),
        bad(
            "mask pattern reaching into an array",
            paths(ORDERS)
                .with("column.mask.hash.list", "orders:items.card", "column.mask.hash.salt", "s"),
            "column.mask.hash.list",
            "pattern 'orders:items.card' names items.card, inside the array or map column items"),
        bad(
            "exclude pattern reaching into an array",
            paths(ORDERS).with("column.exclude.list", "orders:items.card"),
            "column.exclude.list",
            "pattern 'orders:items.card' names items.card, inside the array or map column items"),
        bad(
            "key column excluded",
            paths(GOOD).keyColumns("id").with("column.exclude.list", "good:id"),
            "column.exclude.list",
            "Key column 'id'"),
        bad(
            "path that does not exist",
            paths(DIR.resolve("nowhere").toString()),
            "delta.table.paths",
            "No Delta table"),
        bad(
            "folder that is not a Delta table",
            paths(PLAIN_FOLDER),
            "delta.table.paths",
            "No Delta table"),
        bad(
            "snapshot of a table without CDF",
            paths(NO_CDF).startMode("snapshot"),
            "delta.table.paths",
            "is not enabled at version 0 (delta.enableChangeDataFeed is not true), so the changes"
                + " after a snapshot of that version cannot be read from the feed. Set"
                + " change.source=derived"),
        bad(
            "earliest of a table without CDF",
            paths(NO_CDF).startMode("earliest"),
            "delta.table.paths",
            "Or set change.source=derived or auto"),
        bad(
            "start before CDF was enabled",
            paths(LATE_CDF).with("start.mode", "version", "start.version", "0"),
            "start.version",
            "enabled from version 1 on"),
        bad(
            "start after the latest version",
            paths(GOOD).with("start.mode", "version", "start.version", "99"),
            "start.version",
            "after its latest version 1"),
        bad(
            "negative start version",
            paths(GOOD).with("start.mode", "version", "start.version", "-3"),
            "start.version",
            "Commit versions start at 0"),
        bad(
            "version mode without a version",
            paths(GOOD).with("start.mode", "version"),
            "start.version",
            "needs start.version"),
        bad(
            "unparsable timestamp",
            paths(GOOD).with("start.mode", "timestamp", "start.timestamp", "last tuesday"),
            "start.timestamp",
            "ISO-8601"),
        bad(
            "future timestamp",
            paths(GOOD).with("start.mode", "timestamp", "start.timestamp", future),
            "start.timestamp",
            "No version of table"),
        bad(
            "timestamp mode without a timestamp",
            paths(GOOD).with("start.mode", "timestamp"),
            "start.timestamp",
            "needs start.timestamp"),
        bad(
            "start.version with another mode",
            paths(GOOD).with("start.version", "0"),
            "start.version",
            "only used with start.mode=version"),
        bad(
            "start.timestamp with another mode",
            paths(GOOD).with("start.mode", "earliest", "start.timestamp", "2024-01-01"),
            "start.timestamp",
            "only used with start.mode=timestamp"),
        bad(
            "unknown start mode",
            paths(GOOD).with("start.mode", "yesterday"),
            "start.mode",
            "snapshot, earliest, latest, version, timestamp"),
        bad(
            "misspelt setting",
            paths(GOOD).with("start.mod", "earliest"),
            "start.mod",
            "did you mean 'start.mode'?"),
        bad(
            "another connector's setting",
            paths(GOOD).with("time.precision.mode", "adaptive_time_microseconds"),
            "time.precision.mode",
            "did you mean 'temporal.precision.mode'?"),
        bad(
            "setting of no connector",
            paths(GOOD).with("poll.intervall.millis", "5"),
            "poll.intervall.millis",
            "Unknown setting 'poll.intervall.millis'"),
        bad(
            "unknown key column",
            paths(GOOD).with("key.columns", "customer_id"),
            "key.columns",
            "'customer_id' is not a column"),
        bad(
            "per-table key column the table lacks",
            paths(GOOD).with("key.columns.by.table", "good:order_id"),
            "key.columns.by.table",
            "'order_id' is not a column"),
        bad(
            "malformed per-table key columns",
            paths(GOOD).with("key.columns.by.table", "good"),
            "key.columns.by.table",
            "table:col1,col2"),
        bad(
            "invalid topic name",
            paths(GOOD).with("topic.template", "cdc/${table}"),
            "topic.template",
            "valid topic name"),
        bad(
            "colliding topics",
            paths(GOOD + "," + GOOD + "/"),
            "topic.template",
            "would both write to topic"),
        bad(
            "zero batch size",
            paths(GOOD).with("batch.max.rows", "0"),
            "batch.max.rows",
            "at least 1"),
        bad(
            "zero poll interval",
            paths(GOOD).with("poll.interval.ms", "0"),
            "poll.interval.ms",
            "at least 1"),
        bad(
            "negative transaction bound",
            paths(GOOD).with("transaction.max.rows", "-1"),
            "transaction.max.rows",
            "at least 1"),
        bad(
            "unknown history policy",
            paths(GOOD).with("on.history.missing", "skip"),
            "on.history.missing",
            "Use one of fail, resnapshot"),
        bad(
            "unsupported URI scheme",
            paths("ftpx://host/lake/orders"),
            "delta.table.paths",
            "URI scheme 'ftpx'"),
        bad(
            "static S3 credentials without keys",
            paths(GOOD).with("s3.credentials", "static"),
            "s3.secret.access.key",
            "is required with s3.credentials=static"),
        bad(
            "unknown S3 credential kind",
            paths(GOOD).with("s3.credentials", "magic"),
            "s3.credentials",
            "Use one of default, static, assumed-role"),
        bad(
            "non-boolean path-style flag",
            paths(GOOD).with("s3.path.style.access", "maybe"),
            "s3.path.style.access",
            "true or false"),
        bad(
            "Azure key without an account",
            paths(GOOD).with("azure.account.key", "a2V5"),
            "azure.account.name",
            "is required with the azure.* settings"),
        bad(
            "unknown Azure auth type",
            paths(GOOD).with("azure.account.name", "lake", "azure.auth.type", "password"),
            "azure.auth.type",
            "Use one of shared-key, sas"),
        bad(
            "service principal without its secret",
            paths(GOOD)
                .with(
                    "azure.account.name",
                    "lake",
                    "azure.auth.type",
                    "client-credentials",
                    "azure.oauth.client.id",
                    "app",
                    "azure.oauth.tenant.id",
                    "t"),
            "azure.oauth.client.secret",
            "is required with azure.auth.type=client-credentials"),
        bad(
            "envelope without key columns",
            paths(GOOD).with("record.format", "envelope"),
            "key.columns",
            "pairs each update's pre- and post-image by key"),
        bad(
            "metadata fields in an envelope",
            paths(GOOD)
                .with(
                    "record.format",
                    "envelope",
                    "key.columns",
                    "id",
                    "record.metadata.fields",
                    "true"),
            "record.metadata.fields",
            "applies to record.format=row"),
        bad(
            "unknown change type",
            paths(GOOD).with("change.types", "insert,upsert"),
            "change.types",
            "List one or more of insert, update_preimage"),
        bad(
            "unknown record format",
            paths(GOOD).with("record.format", "avro"),
            "record.format",
            "Use one of row, envelope"),
        bad(
            "column names that collide as Avro names",
            paths(ODD_NAMES).with("field.name.adjustment", "avro"),
            "field.name.adjustment",
            "Columns 'a-b' and 'a.b' would both become field 'a_b'"),
        bad(
            "GCS key file auth without a file",
            paths(GOOD).with("gcs.auth.type", "service-account-keyfile"),
            "gcs.keyfile.path",
            "is required with gcs.auth.type=service-account-keyfile"),
        bad(
            "Unity Catalog name with two parts",
            paths("")
                .with(
                    "unity.catalog.tables", "sales.orders",
                    "unity.catalog.uri", "https://uc.example.com",
                    "unity.catalog.token", "dapi-1"),
            "unity.catalog.tables",
            "is not a Unity Catalog table name"),
        bad(
            "Unity Catalog name among the paths",
            paths("main.sales.orders"),
            "delta.table.paths",
            "looks like a Unity Catalog name"),
        bad(
            "Unity Catalog tables without the catalog's URL",
            paths("").with("unity.catalog.tables", "main.sales.orders", "unity.catalog.token", "t"),
            "unity.catalog.uri",
            "is required with unity.catalog.tables"),
        bad(
            "Unity Catalog without a sign-in",
            paths("")
                .with(
                    "unity.catalog.tables", "main.sales.orders",
                    "unity.catalog.uri", "https://uc.example.com"),
            "unity.catalog.token",
            "Unity Catalog needs a sign-in"),
        bad(
            "Unity Catalog over plain HTTP",
            paths("")
                .with(
                    "unity.catalog.tables", "main.sales.orders",
                    "unity.catalog.uri", "http://uc.example.com",
                    "unity.catalog.token", "t"),
            "unity.catalog.uri",
            "would travel over plain HTTP"),
        bad(
            "Unity Catalog over plain HTTP written in capitals",
            paths("")
                .with(
                    "unity.catalog.tables", "main.sales.orders",
                    "unity.catalog.uri", "HTTP://uc.example.com",
                    "unity.catalog.token", "t"),
            "unity.catalog.uri",
            "would travel over plain HTTP"),
        bad(
            "Unity Catalog OAuth token URL over plain HTTP",
            paths("")
                .with(
                    "unity.catalog.tables", "main.sales.orders",
                    "unity.catalog.uri", "https://uc.example.com",
                    "unity.catalog.oauth.client.id", "sp-1",
                    "unity.catalog.oauth.client.secret", "s3cr3t-value",
                    "unity.catalog.oauth.token.uri", "http://idp.example.com/token"),
            "unity.catalog.oauth.token.uri",
            "client id and secret would travel over plain HTTP"),
        bad(
            "Entra ID authority over plain HTTP",
            paths(GOOD).with("azure.oauth.authority", "http://login.example.com"),
            "azure.oauth.authority",
            "would travel over plain HTTP"),
        bad(
            "per-account Azure key without its account",
            paths(GOOD).with("azure.account.keys", "c2VjcmV0"),
            "azure.account.keys",
            "Entry 1 is not <account>:<secret>"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badConfigs")
  void rejectedOnTheRightKey(
      String problem, Map<String, String> settings, String key, String message) {
    Map<String, String> config = new HashMap<>(settings);
    config.put("name", "catalogue");

    Map<String, List<String>> errors =
        ConnectRest.errorsByKey(cluster.get().rest().validate("DeltaCdfSourceConnector", config));
    assertThat(errors).as("%s: %s", problem, errors).containsKey(key);
    assertThat(String.join(" | ", errors.get(key))).as(problem).contains(message);

    config.remove("name");
    ConnectRest.Response created = cluster.get().rest().tryPutConfig("catalogue", config);
    assertThat(created.status()).as("%s: %s", problem, created).isEqualTo(400);
    assertThat(created.body().toString()).as(problem).contains(message);
  }

  private static Arguments bad(String problem, ConnectorConfig config, String key, String message) {
    return Arguments.of(problem, config.build(), key, message);
  }

  private static ConnectorConfig paths(String paths) {
    return ConnectorConfig.forTables(paths);
  }

  private static Path createDir() {
    try {
      return Files.createTempDirectory("bad-configs-");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
