package io.deltacdf.connect.it.storage;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.connector.ConfigValidation;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.it.storage.testing.Azurite;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two storage accounts in one connector, Azurite accounts behind {@code azure.endpoint}: the
 * azure.* key reaches the host of the first account's table without {@code azure.account.name}, an
 * entry of {@code azure.account.keys} reaches the second, and each table is read only with its own
 * account's key: the one key for both is refused by the account it does not belong to, and
 * validate() says so on the key's setting.
 *
 * <p>OneLake's and the sovereign clouds' hosts cannot be stood in for here: in emulator mode ABFS
 * 3.5 finds the account only in a {@code <account>.dfs.core.windows.net} host. Their mapping is
 * tested as settings (StorageSettingsTest).
 */
class AzureHostsIT {

  private static final String SALES = "sales.dfs.core.windows.net";
  private static final String ARCHIVE = "archive.dfs.core.windows.net";
  private static final String SALES_KEY = key(1);
  private static final String ARCHIVE_KEY = key(2);
  // Spark's JVM caches file systems by container@host: unique per run.
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  private static Azurite azurite;
  private static String orders;
  private static String events;

  private static String key(int seed) {
    byte[] bytes = new byte[64];
    new java.util.Random(seed).nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  @BeforeAll
  static void writeTables() {
    azurite = Azurite.launch(Map.of("sales", SALES_KEY, "archive", ARCHIVE_KEY));
    azurite.configure(spark());
    var hadoop = spark().sparkContext().hadoopConfiguration();
    hadoop.set("fs.azure.account.auth.type." + SALES, "SharedKey");
    hadoop.set("fs.azure.account.key." + SALES, SALES_KEY);
    hadoop.set("fs.azure.account.auth.type." + ARCHIVE, "SharedKey");
    hadoop.set("fs.azure.account.key." + ARCHIVE, ARCHIVE_KEY);
    orders = "abfs://sales" + RUN + "@" + SALES + "/warehouse/orders";
    events = "abfs://logs" + RUN + "@" + ARCHIVE + "/events";
    for (String path : List.of(orders, events)) {
      CdfTables.keyed(path);
    }
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b'), (3, 'c')", orders);
    sql("INSERT INTO delta.`%s` VALUES (10, 'x'), (11, 'y')", events);
  }

  @AfterAll
  static void stop() {
    if (azurite != null) {
      azurite.close();
    }
  }

  /** azure.* with the first account's key (no account name: the tables name their hosts). */
  private static ConnectorConfig config() {
    return ConnectorConfig.forTables(orders + "," + events)
        .with("azure.auth.type", "shared-key")
        .with("azure.account.key", SALES_KEY)
        .with("azure.endpoint", azurite.endpoint())
        .with("storage.insecure.http.allowed", "true")
        .with("hadoop.fs.azure.metrics.collection.enabled", "false");
  }

  private static long rows(DeltaCdfSourceConfig config, String table) {
    long rows = 0;
    try (DeltaTable deltaTable = DeltaTable.open(table, config.stores().hadoopSettings(), false);
        DeltaChangeFeed feed = deltaTable.openFeed(ChangePosition.InVersion.start(0))) {
      ChangeBatch batch;
      while ((batch = feed.next(100)) != null) {
        rows += batch.rows().size();
      }
    }
    return rows;
  }

  @Test
  void eachHostGetsItsOwnAccountsKey() {
    DeltaCdfSourceConfig config =
        new DeltaCdfSourceConfig(
            config().with("azure.account.keys", "archive:" + ARCHIVE_KEY).build());

    assertThat(rows(config, orders)).isEqualTo(3);
    assertThat(rows(config, events)).isEqualTo(2);
    Map<String, ConfigValue> values =
        validate(config().with("azure.account.keys", "archive:" + ARCHIVE_KEY).build());
    assertThat(values.values().stream().flatMap(v -> v.errorMessages().stream())).isEmpty();

    // ABFS's own per-host setting does the same.
    assertThat(
            rows(
                new DeltaCdfSourceConfig(
                    config().with("hadoop.fs.azure.account.key." + ARCHIVE, ARCHIVE_KEY).build()),
                events))
        .isEqualTo(2);
  }

  @Test
  void aWrongPerAccountKeyIsReportedOnItsSettingWithoutTheKey() {
    Map<String, ConfigValue> values =
        validate(config().with("azure.account.keys", ARCHIVE + ":" + SALES_KEY).build());
    assertThat(values.get("azure.account.keys").errorMessages())
        .singleElement()
        .asString()
        .contains(events)
        .doesNotContain(SALES_KEY);
    assertThat(values.get("azure.account.key").errorMessages()).isEmpty();
  }

  @Test
  void aKeyIsRefusedByTheAccountItDoesNotBelongTo() {
    DeltaCdfSourceConfig config = new DeltaCdfSourceConfig(config().build());

    assertThat(rows(config, orders)).isEqualTo(3);
    assertThatThrownBy(() -> rows(config, events))
        .isInstanceOf(DeltaFeedException.class)
        .satisfies(
            e ->
                assertThat(((DeltaFeedException) e).kind())
                    .isEqualTo(DeltaFeedException.Kind.ACCESS_DENIED));
    Map<String, ConfigValue> values = validate(config().build());
    assertThat(values.get("azure.account.key").errorMessages())
        .singleElement()
        .asString()
        .contains(events)
        .doesNotContain(SALES_KEY);
  }

  private static Map<String, ConfigValue> validate(Map<String, String> settings) {
    Map<String, ConfigValue> values = new HashMap<>();
    ConfigValidation.validate(settings, "test")
        .configValues()
        .forEach(v -> values.put(v.name(), v));
    return values;
  }
}
