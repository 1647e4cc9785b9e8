package io.deltacdf.connect.delta;

import io.deltacdf.connect.delta.catalog.CatalogAuth;
import io.deltacdf.connect.delta.catalog.CatalogTable;
import io.deltacdf.connect.delta.catalog.UnityCatalog;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Tables named in Unity Catalog ({@code catalog.schema.table}): each is opened at the location the
 * catalog gives, with read credentials the catalog vends and renews for it. Storage credentials of
 * the connector's own settings are not used for such a table's host. A catalog-managed table is
 * read with the commits the catalog ratified, published or not.
 */
public final class CatalogTables {

  private final UnityCatalog catalog;

  private CatalogTables(UnityCatalog catalog) {
    this.catalog = catalog;
  }

  /** A catalog signed in to with a personal access token. */
  public static CatalogTables withToken(String uri, String token, Map<String, String> hadoop) {
    return new CatalogTables(new UnityCatalog(uri, CatalogAuth.personalAccessToken(token), hadoop));
  }

  /** A catalog signed in to as a service principal, by OAuth client credentials. */
  public static CatalogTables withServicePrincipal(
      String uri,
      String clientId,
      String clientSecret,
      String oauthTokenUri,
      String oauthScope,
      Map<String, String> hadoop) {
    return new CatalogTables(
        new UnityCatalog(
            uri,
            CatalogAuth.servicePrincipal(clientId, clientSecret, oauthTokenUri, oauthScope),
            hadoop));
  }

  /**
   * Opens the table named {@code fullName}; the caller closes it.
   *
   * @param storeSettings the Hadoop settings of the connector's stores
   * @param overrides the user's own {@code hadoop.*} settings, which win over vended ones
   */
  public DeltaTable open(
      String fullName,
      Map<String, String> storeSettings,
      Map<String, String> overrides,
      boolean filesOutsideTableAllowed) {
    CatalogTable table = catalog.resolve(fullName);
    Map<String, String> settings = withoutCredentialsFor(storeSettings, table.location());
    settings.putAll(catalog.readSettings(table));
    settings.putAll(overrides);
    Optional<String> catalogTableId = Optional.of(table.tableId());
    DeltaTable opened =
        DeltaTable.open(
            table.location(), settings, filesOutsideTableAllowed, Optional.empty(), catalogTableId);
    try {
      if (!opened.catalogManaged()) {
        return opened;
      }
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
    // Its newest commits are known to the catalog only: read them through it.
    opened.close();
    return DeltaTable.open(
        table.location(),
        settings,
        filesOutsideTableAllowed,
        Optional.of(catalog.commitsOf(table)),
        catalogTableId);
  }

  /** ABFS reads credentials per host first: the connector's own for this host would win. */
  private static Map<String, String> withoutCredentialsFor(
      Map<String, String> settings, String location) {
    Map<String, String> kept = new HashMap<>(settings);
    String host = URI.create(location).getHost();
    if (host != null) {
      kept.keySet().removeIf(key -> key.startsWith("fs.azure.") && key.endsWith("." + host));
    }
    return kept;
  }
}
