package io.deltacdf.connect.config;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of the stores a connector's tables are read from: the Hadoop file system settings,
 * the endpoints requests go to, and the settings that hold their credentials.
 */
public final class StoreView {

  private final DeltaCdfSourceConfig config;

  StoreView(DeltaCdfSourceConfig config) {
    this.config = config;
  }

  /**
   * The Hadoop file system settings: those the s3.*, azure.* and gcs.* settings stand for, then
   * every {@code hadoop.*} key without the prefix (which wins, as the more specific setting).
   */
  public Map<String, String> hadoopSettings() {
    Map<String, String> settings = new HashMap<>(StorageSettings.hadoopSettings(config));
    settings.putAll(hadoopOverrides());
    return settings;
  }

  /** The {@code hadoop.*} settings alone, without the prefix. */
  public Map<String, String> hadoopOverrides() {
    Map<String, String> overrides = new HashMap<>();
    config
        .originalsWithPrefix(DeltaCdfSourceConfig.HADOOP_PREFIX)
        .forEach((k, v) -> overrides.put(k, String.valueOf(v)));
    return overrides;
  }

  /**
   * {@link #hadoopSettings()} for a Unity Catalog table: without the store endpoints (s3.endpoint,
   * azure.endpoint, gcs.endpoint, or hadoop.* endpoint keys), so that the credentials the catalog
   * vends for a table go only to the store its location names. Only with {@code
   * storage.insecure.http.allowed=true}, for a test catalog in front of an emulator, do they stay.
   */
  public Map<String, String> catalogTableHadoopSettings() {
    return StoreEndpoints.forCatalogTables(config, hadoopSettings());
  }

  /**
   * {@link #hadoopOverrides()} for a Unity Catalog table, as {@link #catalogTableHadoopSettings}.
   */
  public Map<String, String> catalogTableHadoopOverrides() {
    return StoreEndpoints.forCatalogTables(config, hadoopOverrides());
  }

  /**
   * The setting that holds the credential for the store of {@code tablePath} (e.g.
   * s3.secret.access.key), or null for local tables: where an access-denied error belongs.
   */
  public String credentialSettingFor(String tablePath) {
    if (config.isCatalogTable(tablePath)) {
      return UnityCatalogSettings.credentialSetting(config);
    }
    return StorageSettings.credentialSettingFor(config, tablePath);
  }

  /** Where requests for the table go, for the log: e.g. https://minio.internal:9000. */
  public String endpointOf(String tablePath) {
    return StoreEndpoints.endpointOf(tablePath, hadoopSettings());
  }

  /**
   * Fails when a store would be reached over plain HTTP without {@code
   * storage.insecure.http.allowed}: checked where the tables are read, too, since a task may run
   * with a configuration that was never validated.
   */
  public void requireTlsToStores() {
    Map<String, List<String>> problems = new LinkedHashMap<>();
    StoreEndpoints.crossFieldProblems(config, problems);
    DeltaCdfSourceConfig.throwFirst(problems);
  }

  /** The endpoint setting of the table's store, when set (where connection errors belong). */
  public String endpointSettingFor(String tablePath) {
    if (config.isCatalogTable(tablePath)) {
      return UnityCatalogSettings.URI_SETTING;
    }
    return StorageSettings.endpointSettingFor(config, tablePath);
  }
}
