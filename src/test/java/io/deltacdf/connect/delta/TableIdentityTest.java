package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.testing.Folders;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which table a stored position belongs to: a table replaced in place (its log goes on, with a new
 * Delta id) is the same table; one deleted and created again at its path is another.
 */
class TableIdentityTest {

  @TempDir Path dir;

  @Test
  void aReplacedTableHoldsItsOldIdsAndARecreatedOneNone() {
    String path = dir.resolve("orders").toString();
    create(path);
    String first = idOf(path);
    sql(
        "CREATE OR REPLACE TABLE delta.`%s` USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true') AS SELECT 2L AS id",
        path);
    String replaced = idOf(path);
    assertThat(replaced).as("REPLACE writes a new Delta table id").isNotEqualTo(first);

    try (DeltaTable table = DeltaTable.open(path, Map.of(), false)) {
      LatestSnapshot latest = table.latestSnapshot();
      assertThat(table.identity(latest)).isEqualTo(new TableIdentity(replaced, null));
      assertThat(table.holds(new TableIdentity(first, null), latest)).isTrue();
      assertThat(table.holds(new TableIdentity(replaced, null), latest)).isTrue();
    }

    Folders.deleteRecursively(Path.of(path));
    create(path);
    sql("INSERT INTO delta.`%s` VALUES (3)", path);
    try (DeltaTable table = DeltaTable.open(path, Map.of(), false)) {
      LatestSnapshot latest = table.latestSnapshot();
      assertThat(table.holds(new TableIdentity(first, null), latest)).isFalse();
      assertThat(table.holds(new TableIdentity(replaced, null), latest)).isFalse();
      assertThat(table.holds(table.identity(latest), latest)).isTrue();
    }
  }

  @Test
  void anotherCatalogIdIsAnotherTableWhateverTheDeltaId() {
    String path = dir.resolve("named").toString();
    create(path);
    String id = idOf(path);
    try (DeltaTable table =
        DeltaTable.open(path, Map.of(), false, Optional.empty(), Optional.of("uc-2"))) {
      LatestSnapshot latest = table.latestSnapshot();
      assertThat(table.holds(new TableIdentity(id, "uc-2"), latest)).isTrue();
      assertThat(table.holds(new TableIdentity(id, null), latest)).isTrue();
      assertThat(table.holds(new TableIdentity(id, "uc-1"), latest)).isFalse();
    }
  }

  private static void create(String path) {
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
  }

  private static String idOf(String path) {
    return spark().sql("DESCRIBE DETAIL delta.`" + path + "`").first().getAs("id");
  }
}
