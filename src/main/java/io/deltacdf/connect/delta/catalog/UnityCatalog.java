package io.deltacdf.connect.delta.catalog;

import io.deltacdf.connect.delta.DeltaFeedException;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.auth.TokenProvider;
import io.unitycatalog.client.internal.ApiClientUtils;
import io.unitycatalog.client.model.DataSourceFormat;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.hadoop.UCCredentialHadoopConfs;
import io.unitycatalog.hadoop.internal.UCHadoopConfConstants;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A Unity Catalog (a Databricks workspace or an open-source Unity Catalog server): finds a table's
 * location by its name and has the catalog vend short-lived read credentials for it ("credential
 * vending"). The credentials come as Hadoop settings naming the client library's providers, which
 * ask the catalog for fresh ones before the old expire, so reading never pauses for a renewal.
 */
public final class UnityCatalog {

  private static final Map<String, String> APP_VERSION = Map.of("kafka-connect-delta-cdf", "1");

  private final String uri;
  private final CatalogAuth auth;
  private final TokenProvider tokens;
  private final Configuration settings;
  private final ApiClient client;

  /**
   * @param uri the workspace or server URL, e.g. {@code https://adb-1234.5.azuredatabricks.net}
   *     (the client adds {@code /api/2.1/unity-catalog})
   * @param hadoopSettings the Hadoop settings tables are read with: {@code fs.unitycatalog.*} keys
   *     among them tune renewal and request retries
   */
  public UnityCatalog(String uri, CatalogAuth auth, Map<String, String> hadoopSettings) {
    this.uri = uri.replaceAll("/+$", "");
    this.auth = auth;
    this.tokens = auth.tokenProvider();
    this.settings = new Configuration(false);
    hadoopSettings.forEach(settings::set);
    this.client =
        ApiClientUtils.create(
            URI.create(this.uri),
            tokens,
            UCHadoopConfConstants.createRequestRetryPolicy(settings),
            APP_VERSION);
  }

  /** The table named {@code fullName} ({@code catalog.schema.table}); it must be a Delta table. */
  public CatalogTable resolve(String fullName) {
    TableInfo info;
    try {
      info = new TablesApi(client).getTable(fullName, false, false);
    } catch (ApiException | RuntimeException e) {
      throw CatalogErrors.lookupFailed(uri, auth, fullName, e);
    }
    if (info.getDataSourceFormat() != DataSourceFormat.DELTA || info.getStorageLocation() == null) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          "Table "
              + fullName
              + " in Unity Catalog at "
              + uri
              + " is a "
              + info.getDataSourceFormat()
              + " "
              + info.getTableType()
              + " table, not a Delta table with a storage location: only Delta tables have a"
              + " change data feed. Remove it from unity.catalog.tables");
    }
    return new CatalogTable(fullName, info.getTableId(), info.getStorageLocation());
  }

  /** The commits the catalog ratifies for {@code table}, a catalog-managed table. */
  public CatalogCommits commitsOf(CatalogTable table) {
    return new CatalogCommits(uri, tokens, APP_VERSION, table);
  }

  /**
   * Hadoop settings that read {@code table} with credentials the catalog vends for it, renewed
   * before they expire. Fetches the first credentials now, so a refusal shows at once.
   */
  public Map<String, String> readSettings(CatalogTable table) {
    String scheme =
        java.util.Objects.requireNonNullElse(URI.create(table.location()).getScheme(), "file");
    try {
      Map<String, String> vended =
          UCCredentialHadoopConfs.builder(uri, scheme.toLowerCase(Locale.ROOT))
              .tokenProvider(tokens)
              .apiClient(client)
              .hadoopConf(settings)
              // Each table already reads through its own file system instances (TableFileIO);
              // the library's credential-scoped wrapper lacks calls Kernel makes.
              .enableCredentialScopedFs(false)
              .addAppVersions(APP_VERSION)
              .buildForTable(table.tableId(), UCCredentialHadoopConfs.TableOperation.READ);
      if (vended.isEmpty() && !scheme.equalsIgnoreCase("file")) {
        throw new DeltaFeedException(
            DeltaFeedException.Kind.UNSUPPORTED_TABLE,
            "Table "
                + table.fullName()
                + " lies at "
                + table.location()
                + ", a store Unity Catalog vends no credentials for (only s3, abfs(s) and gs)");
      }
      return vended;
    } catch (ApiException | RuntimeException e) {
      if (e instanceof DeltaFeedException feedError) {
        throw feedError;
      }
      throw CatalogErrors.vendingFailed(uri, auth, table.fullName(), e);
    }
  }
}
