package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.StorageSettings.secret;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The unity.catalog.* settings: tables named in Unity Catalog, read with credentials the catalog
 * vends. The catalog is a Databricks workspace or an open-source Unity Catalog server; the
 * connector signs in with a personal access token or a service principal's OAuth secret.
 */
final class UnityCatalogSettings {

  static final String URI_SETTING = "unity.catalog.uri";
  static final String TABLES = "unity.catalog.tables";
  static final String TOKEN = "unity.catalog.token";
  static final String CLIENT_ID = "unity.catalog.oauth.client.id";
  static final String CLIENT_SECRET = "unity.catalog.oauth.client.secret";
  static final String TOKEN_URI = "unity.catalog.oauth.token.uri";
  static final String SCOPE = "unity.catalog.oauth.scope";

  private static final String GROUP = "Unity Catalog";

  /** {@code catalog.schema.table}: three names, none empty, no slash or colon. */
  private static final Pattern FULL_NAME = Pattern.compile("[^./:\\s]+\\.[^./:\\s]+\\.[^./:\\s]+");

  private UnityCatalogSettings() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        TABLES,
        Type.LIST,
        "",
        Importance.HIGH,
        "Tables named in Unity Catalog as catalog.schema.table, streamed beside those of"
            + " delta.table.paths. Each is read at the location the catalog gives, with read"
            + " credentials the catalog vends for it and that are renewed before they expire."
            + " Needs unity.catalog.uri.",
        GROUP,
        ++order,
        Width.LONG,
        "Unity Catalog tables");
    def.define(
        URI_SETTING,
        Type.STRING,
        null,
        Importance.HIGH,
        "The catalog: a Databricks workspace URL (https://adb-<id>.<n>.azuredatabricks.net) or"
            + " an open-source Unity Catalog server (https://uc.internal:8080). The API path"
            + " /api/2.1/unity-catalog is added.",
        GROUP,
        ++order,
        Width.LONG,
        "Unity Catalog URL");
    def.define(
        TOKEN,
        Type.PASSWORD,
        null,
        Importance.HIGH,
        "A personal access token of the principal the connector reads as. Leave empty to sign in"
            + " as a service principal with unity.catalog.oauth.client.id and .secret.",
        GROUP,
        ++order,
        Width.LONG,
        "Unity Catalog token");
    def.define(
        CLIENT_ID,
        Type.STRING,
        null,
        Importance.HIGH,
        "A service principal's OAuth client id (machine-to-machine OAuth), instead of a token.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Unity Catalog OAuth client id");
    def.define(
        CLIENT_SECRET,
        Type.PASSWORD,
        null,
        Importance.HIGH,
        "The service principal's OAuth secret.",
        GROUP,
        ++order,
        Width.LONG,
        "Unity Catalog OAuth secret");
    def.define(
        TOKEN_URI,
        Type.STRING,
        null,
        Importance.LOW,
        "Where OAuth tokens are issued; by default Databricks' <unity.catalog.uri>/oidc/v1/token.",
        GROUP,
        ++order,
        Width.LONG,
        "Unity Catalog OAuth token URL");
    def.define(
        SCOPE,
        Type.STRING,
        "all-apis",
        Importance.LOW,
        "The OAuth scope asked for.",
        GROUP,
        ++order,
        Width.SHORT,
        "Unity Catalog OAuth scope");
  }

  static List<String> tables(AbstractConfig config) {
    return config.getList(TABLES).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /** Whether {@code name} has the shape of a catalog name, not of a path. */
  static boolean isFullName(String name) {
    return FULL_NAME.matcher(name).matches();
  }

  /** How to reach the catalog of unity.catalog.tables. */
  static UnityCatalogConnection connection(AbstractConfig config) {
    return new UnityCatalogConnection(
        uri(config),
        token(config),
        clientId(config),
        clientSecret(config),
        tokenUri(config),
        scope(config));
  }

  static String uri(AbstractConfig config) {
    String uri = config.getString(URI_SETTING);
    return uri == null ? null : uri.trim().replaceAll("/+$", "");
  }

  static boolean usesToken(AbstractConfig config) {
    return given(secret(config, TOKEN));
  }

  private static boolean given(String value) {
    return value != null && !value.isBlank();
  }

  static String token(AbstractConfig config) {
    return usesToken(config) ? secret(config, TOKEN) : null;
  }

  static String clientId(AbstractConfig config) {
    return config.getString(CLIENT_ID);
  }

  static String clientSecret(AbstractConfig config) {
    return secret(config, CLIENT_SECRET);
  }

  static String tokenUri(AbstractConfig config) {
    String configured = config.getString(TOKEN_URI);
    return configured != null ? configured : uri(config) + "/oidc/v1/token";
  }

  static String scope(AbstractConfig config) {
    return config.getString(SCOPE);
  }

  /** The setting that holds the credential the catalog checks. */
  static String credentialSetting(AbstractConfig config) {
    return usesToken(config) || !given(secret(config, CLIENT_SECRET)) ? TOKEN : CLIENT_SECRET;
  }

  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    for (String name : tables(config)) {
      if (!isFullName(name)) {
        add(
            problems,
            TABLES,
            "'"
                + name
                + "' is not a Unity Catalog table name: name tables as catalog.schema.table"
                + " (e.g. main.sales.orders); list paths in delta.table.paths");
      }
    }
    for (String path : config.getList(DeltaCdfSourceConfig.TABLE_PATHS)) {
      if (isFullName(path.trim())) {
        add(
            problems,
            DeltaCdfSourceConfig.TABLE_PATHS,
            "'"
                + path.trim()
                + "' looks like a Unity Catalog name, not a path: list it in "
                + TABLES
                + ", or give the table's URI (s3a://..., abfss://..., /local/path)");
      }
    }
    boolean configured =
        !tables(config).isEmpty()
            || given(config.getString(URI_SETTING))
            || usesToken(config)
            || given(config.getString(CLIENT_ID));
    if (!configured) {
      return;
    }
    String uri = uri(config);
    if (uri == null || uri.isBlank()) {
      add(problems, URI_SETTING, URI_SETTING + " is required with " + TABLES);
    } else if (!isHttpUri(uri)) {
      add(
          problems,
          URI_SETTING,
          "'" + uri + "' is not an http(s) URL: give the workspace or server URL");
    } else if (StorageSettings.isHttp(uri)
        && !config.getBoolean(StoreEndpoints.INSECURE_HTTP_ALLOWED)) {
      add(
          problems,
          URI_SETTING,
          "The catalog's token would travel over plain HTTP to "
              + uri
              + ": use https://, or set "
              + StoreEndpoints.INSECURE_HTTP_ALLOWED
              + "=true for a test catalog on a trusted network");
    }
    String tokenUri = config.getString(TOKEN_URI);
    if (given(tokenUri)
        && StorageSettings.isHttp(tokenUri)
        && !config.getBoolean(StoreEndpoints.INSECURE_HTTP_ALLOWED)) {
      add(
          problems,
          TOKEN_URI,
          "The OAuth client id and secret would travel over plain HTTP to "
              + tokenUri
              + ": use https://, or set "
              + StoreEndpoints.INSECURE_HTTP_ALLOWED
              + "=true for a test catalog on a trusted network");
    }
    boolean token = usesToken(config);
    boolean oauth = given(config.getString(CLIENT_ID)) || given(secret(config, CLIENT_SECRET));
    if (token && oauth) {
      add(problems, TOKEN, "Set either " + TOKEN + " or the OAuth client id and secret, not both");
    } else if (!token && !oauth) {
      add(
          problems,
          TOKEN,
          "Unity Catalog needs a sign-in: set "
              + TOKEN
              + " (a personal access token), or "
              + CLIENT_ID
              + " and "
              + CLIENT_SECRET
              + " (a service principal)");
    } else if (oauth) {
      if (!given(config.getString(CLIENT_ID))) {
        add(problems, CLIENT_ID, CLIENT_ID + " is required with " + CLIENT_SECRET);
      }
      if (!given(secret(config, CLIENT_SECRET))) {
        add(problems, CLIENT_SECRET, CLIENT_SECRET + " is required with " + CLIENT_ID);
      }
    }
  }

  private static boolean isHttpUri(String uri) {
    try {
      URI parsed = URI.create(uri);
      return parsed.getHost() != null
          && ("https".equalsIgnoreCase(parsed.getScheme())
              || "http".equalsIgnoreCase(parsed.getScheme()));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void add(Map<String, List<String>> problems, String key, String message) {
    problems.computeIfAbsent(key, k -> new ArrayList<>()).add(message);
  }
}
