package io.deltacdf.connect.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which folders below a root are tables, and how many listings finding them costs. */
class TableDiscoveryTest {

  @TempDir Path root;

  private void table(String relative) throws IOException {
    Files.createDirectories(root.resolve(relative).resolve("_delta_log"));
  }

  @Test
  void findsTablesInFabricHiveAndPlainLayoutsWithoutWalkingThem() throws IOException {
    table("Tables/dbo/orders");
    table("Tables/sales/customers");
    table("warehouse/shop.db/items");
    table("flat");
    // Inside a table: partition folders, and a folder that looks like a table, never walked.
    Files.createDirectories(root.resolve("flat/region=eu"));
    table("flat/region=us/nested");
    // Folders of writers and tools are skipped, whatever they hold.
    table("_staging/hidden");
    table(".trash/old");
    Files.createDirectories(root.resolve("empty/deeper"));

    TableDiscovery.Found found = TableDiscovery.under(root.toString(), Map.of(), 4);

    assertThat(found.tables())
        .containsExactly(
            root + "/Tables/dbo/orders",
            root + "/Tables/sales/customers",
            root + "/flat",
            root + "/warehouse/shop.db/items");
    // root, Tables, Tables/dbo, Tables/dbo/orders, Tables/sales, Tables/sales/customers,
    // warehouse, warehouse/shop.db, warehouse/shop.db/items, flat, empty, empty/deeper
    assertThat(found.listCalls()).isEqualTo(12);
  }

  @Test
  void symbolicLinksAreNotFollowedOutOfTheRootNorToATableTwice(@TempDir Path outside)
      throws IOException {
    table("sales/orders");
    Files.createDirectories(outside.resolve("secret/_delta_log"));
    // A link to a table of the root, a link out of the root, a link to a folder of tables, and
    // a folder whose _delta_log is a link to another table's log.
    Files.createSymbolicLink(root.resolve("orders-again"), root.resolve("sales/orders"));
    Files.createSymbolicLink(root.resolve("escape"), outside.resolve("secret"));
    Files.createSymbolicLink(root.resolve("mirror"), root.resolve("sales"));
    Files.createDirectories(root.resolve("borrowed"));
    Files.createSymbolicLink(
        root.resolve("borrowed/_delta_log"), root.resolve("sales/orders/_delta_log"));

    TableDiscovery.Found found = TableDiscovery.under(root.toString(), Map.of(), 4);

    assertThat(found.tables()).containsExactly(root + "/sales/orders");
  }

  @Test
  void stopsAtTheMaximumDepth() throws IOException {
    table("a/b/c/deep");
    table("a/shallow");

    assertThat(TableDiscovery.under(root.toString(), Map.of(), 2).tables())
        .containsExactly(root + "/a/shallow");
    assertThat(TableDiscovery.under(root + "/", Map.of(), 4).tables())
        .as("a root given with a trailing slash")
        .containsExactly(root + "/a/b/c/deep", root + "/a/shallow");
  }

  @Test
  void aRootThatIsATableIsTheOnlyTable() throws IOException {
    Files.createDirectories(root.resolve("_delta_log"));
    table("inner");

    assertThat(TableDiscovery.under(root.toString(), Map.of(), 4).tables())
        .isEqualTo(List.of(root.toString()));
  }

  @Test
  void aMissingRootIsReportedAsSuch() {
    assertThatThrownBy(() -> TableDiscovery.under(root + "/missing", Map.of(), 4))
        .isInstanceOf(DeltaFeedException.class)
        .hasMessageContaining("Table root " + root + "/missing does not exist")
        .satisfies(
            e ->
                assertThat(((DeltaFeedException) e).kind())
                    .isEqualTo(DeltaFeedException.Kind.TABLE_NOT_FOUND));
  }
}
