package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.StorageSettings.isHttp;
import static io.deltacdf.connect.config.StorageSettings.put;
import static io.deltacdf.connect.config.StorageSettings.require;
import static io.deltacdf.connect.config.StorageSettings.secret;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The azure.* settings, translated into ABFS's. */
final class AzureSettings {

  static final String ACCOUNT_NAME = "azure.account.name";
  static final String AUTH_TYPE = "azure.auth.type";
  static final String ACCOUNT_KEY = "azure.account.key";
  static final String SAS_TOKEN = "azure.sas.token";
  static final String CLIENT_ID = "azure.oauth.client.id";
  static final String CLIENT_SECRET = "azure.oauth.client.secret";
  static final String TENANT_ID = "azure.oauth.tenant.id";
  static final String TOKEN_FILE = "azure.workload.identity.token.file";
  static final String ENDPOINT = "azure.endpoint";
  static final String AUTHORITY = "azure.oauth.authority";

  /** Entra ID's public cloud; sovereign clouds have their own. */
  static final String PUBLIC_AUTHORITY = "https://login.microsoftonline.com";

  /** abfs[s]://container@host[:port]/...: the host. */
  private static final Pattern ABFS_HOST = Pattern.compile("(?i)abfss?://[^@/]*@([^:/]+)");

  private static final String GROUP = "Azure Data Lake Storage Gen2 (abfs://, abfss://)";

  /** How to authenticate to the account (azure.auth.type). */
  enum Auth {
    /** azure.account.key. */
    SHARED_KEY,
    /** azure.sas.token. */
    SAS,
    /** A service principal: client id, secret and tenant. */
    CLIENT_CREDENTIALS,
    /** The VM's identity, optionally a user-assigned one named by its client id. */
    MANAGED_IDENTITY,
    /** A federated token file, with client id and tenant. */
    WORKLOAD_IDENTITY
  }

  private AzureSettings() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        ACCOUNT_NAME,
        Type.STRING,
        null,
        Importance.HIGH,
        "The storage account the azure.* settings apply to (the <account> in"
            + " abfss://container@<account>.dfs.core.windows.net/path). The settings apply to"
            + " the host of every abfs:// and abfss:// table and root too (OneLake's"
            + " onelake.dfs.fabric.microsoft.com, a sovereign cloud's"
            + " <account>.dfs.core.usgovcloudapi.net), so it may be left out when those name"
            + " their hosts. An account that needs other credentials takes them from"
            + " azure.account.keys or azure.sas.tokens.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Azure storage account");
    def.define(
        AUTH_TYPE,
        Type.STRING,
        EnumSettings.valueOf(Auth.SHARED_KEY),
        Validators.oneOf(Auth.class),
        Importance.HIGH,
        "How to authenticate to the account: shared-key (azure.account.key), sas"
            + " (azure.sas.token), client-credentials (a service principal:"
            + " azure.oauth.client.id, azure.oauth.client.secret, azure.oauth.tenant.id),"
            + " managed-identity (optionally azure.oauth.client.id for a user-assigned identity),"
            + " workload-identity (azure.oauth.client.id, azure.oauth.tenant.id and"
            + " azure.workload.identity.token.file).",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Azure authentication");
    def.define(
        ACCOUNT_KEY,
        Type.PASSWORD,
        null,
        Importance.HIGH,
        "The account key, with azure.auth.type=shared-key.",
        GROUP,
        ++order,
        Width.LONG,
        "Azure account key");
    def.define(
        SAS_TOKEN,
        Type.PASSWORD,
        null,
        Importance.HIGH,
        "A SAS token, with azure.auth.type=sas.",
        GROUP,
        ++order,
        Width.LONG,
        "Azure SAS token");
    def.define(
        CLIENT_ID,
        Type.STRING,
        null,
        Importance.MEDIUM,
        "The application (client) id of the service principal or managed identity.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Azure client id");
    def.define(
        CLIENT_SECRET,
        Type.PASSWORD,
        null,
        Importance.HIGH,
        "The service principal's client secret, with azure.auth.type=client-credentials.",
        GROUP,
        ++order,
        Width.LONG,
        "Azure client secret");
    def.define(
        TENANT_ID,
        Type.STRING,
        null,
        Importance.MEDIUM,
        "The Entra ID (Azure AD) tenant id.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Azure tenant id");
    def.define(
        AUTHORITY,
        Type.STRING,
        PUBLIC_AUTHORITY,
        Importance.LOW,
        "The Entra ID authority that issues client-credentials and workload-identity tokens:"
            + " https://login.microsoftonline.us (US Government) or"
            + " https://login.chinacloudapi.cn (China) for the sovereign clouds. Tokens are"
            + " asked for Azure Storage at <authority>/<tenant>/oauth2/token (client"
            + " credentials) or <authority>/<tenant>/oauth2/v2.0/token (workload identity).",
        GROUP,
        ++order,
        Width.LONG,
        "Entra ID authority");
    def.define(
        TOKEN_FILE,
        Type.STRING,
        null,
        Importance.MEDIUM,
        "The federated token file of workload identity (AZURE_FEDERATED_TOKEN_FILE on AKS).",
        GROUP,
        ++order,
        Width.LONG,
        "Azure workload identity token file");
    def.define(
        ENDPOINT,
        Type.STRING,
        null,
        Importance.LOW,
        "A custom Blob/DFS endpoint such as an Azurite emulator, e.g. http://127.0.0.1:10000;"
            + " an http:// endpoint turns TLS off and needs storage.insecure.http.allowed=true.",
        GROUP,
        ++order,
        Width.LONG,
        "Azure endpoint");
    AzureAccountCredentials.define(def, GROUP, ++order);
  }

  private static Auth auth(AbstractConfig config) {
    return EnumSettings.parse(Auth.class, config.getString(AUTH_TYPE));
  }

  /** The setting that holds the credential of the table at {@code uri}, for error reports. */
  static String credentialSetting(AbstractConfig config, String uri) {
    Matcher abfs = ABFS_HOST.matcher(uri.trim());
    String perAccount =
        abfs.lookingAt() ? AzureAccountCredentials.settingFor(config, abfs.group(1)) : null;
    return perAccount != null ? perAccount : credentialSetting(config);
  }

  /** The setting that holds the credential, for error reports. */
  static String credentialSetting(AbstractConfig config) {
    return switch (auth(config)) {
      case SHARED_KEY -> ACCOUNT_KEY;
      case SAS -> SAS_TOKEN;
      case CLIENT_CREDENTIALS -> CLIENT_SECRET;
      case MANAGED_IDENTITY, WORKLOAD_IDENTITY -> AUTH_TYPE;
    };
  }

  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    AzureAccountCredentials.crossFieldProblems(config, problems);
    String authority = config.getString(AUTHORITY);
    if (authority != null
        && isHttp(authority)
        && !config.getBoolean(StoreEndpoints.INSECURE_HTTP_ALLOWED)) {
      problems
          .computeIfAbsent(AUTHORITY, k -> new ArrayList<>())
          .add(
              "The service principal's secret or the workload identity's token would travel over"
                  + " plain HTTP to "
                  + authority
                  + ": use https://, or set "
                  + StoreEndpoints.INSECURE_HTTP_ALLOWED
                  + "=true for a test network");
    }
    if (!configured(config)) {
      return;
    }
    if (hosts(config).isEmpty()) {
      require(config, problems, ACCOUNT_NAME, "the azure.* settings without abfs(s):// tables");
    }
    Auth auth = auth(config);
    String why = AUTH_TYPE + "=" + EnumSettings.valueOf(auth);
    switch (auth) {
      case SHARED_KEY -> require(config, problems, ACCOUNT_KEY, why);
      case SAS -> require(config, problems, SAS_TOKEN, why);
      case CLIENT_CREDENTIALS -> {
        require(config, problems, CLIENT_ID, why);
        require(config, problems, CLIENT_SECRET, why);
        require(config, problems, TENANT_ID, why);
      }
      case WORKLOAD_IDENTITY -> {
        require(config, problems, CLIENT_ID, why);
        require(config, problems, TENANT_ID, why);
        require(config, problems, TOKEN_FILE, why);
      }
      case MANAGED_IDENTITY -> {}
    }
  }

  /**
   * The hosts the credentials go to: azure.account.name's, and that of every abfs(s):// table and
   * root. No other host gets them.
   */
  static Set<String> hosts(AbstractConfig config) {
    Set<String> hosts = new LinkedHashSet<>();
    String account = config.getString(ACCOUNT_NAME);
    if (account != null) {
      hosts.add(account + ".dfs.core.windows.net");
    }
    List<String> uris = new ArrayList<>(config.getList(DeltaCdfSourceConfig.TABLE_PATHS));
    uris.addAll(config.getList(DeltaCdfSourceConfig.TABLE_ROOTS));
    for (String uri : uris) {
      Matcher abfs = ABFS_HOST.matcher(uri.trim());
      if (abfs.lookingAt()) {
        hosts.add(abfs.group(1)); // as written: ABFS looks its settings up by the URI's host
      }
    }
    return hosts;
  }

  static void hadoopSettings(AbstractConfig config, Map<String, String> hadoop) {
    for (String host : hosts(config)) {
      hostSettings(config, host, hadoop);
    }
    AzureAccountCredentials.hadoopSettings(config, hadoop);
    String endpoint = config.getString(ENDPOINT);
    if (endpoint != null) {
      hadoop.put("fs.azure.abfs.endpoint", endpoint.trim().replaceFirst("(?i)^https?://", ""));
      if (isHttp(endpoint)) {
        hadoop.put("fs.azure.always.use.https", "false");
        // Azurite speaks plain HTTP; the default networking library insists on TLS.
        hadoop.put("fs.azure.networking.library", "JDK_HTTP_URL_CONNECTION");
      }
    }
  }

  /** ABFS's per-host settings of the configured authentication, for {@code host}. */
  private static void hostSettings(AbstractConfig config, String host, Map<String, String> hadoop) {
    String clientId = config.getString(CLIENT_ID);
    String tenant = config.getString(TENANT_ID);
    switch (auth(config)) {
      case SHARED_KEY -> {
        hadoop.put("fs.azure.account.auth.type." + host, "SharedKey");
        put(hadoop, "fs.azure.account.key." + host, secret(config, ACCOUNT_KEY));
      }
      case SAS -> {
        hadoop.put("fs.azure.account.auth.type." + host, "SAS");
        put(hadoop, "fs.azure.sas.fixed.token." + host, secret(config, SAS_TOKEN));
      }
      case CLIENT_CREDENTIALS -> {
        oauth(hadoop, host, "org.apache.hadoop.fs.azurebfs.oauth2.ClientCredsTokenProvider");
        put(hadoop, "fs.azure.account.oauth2.client.id." + host, clientId);
        put(hadoop, "fs.azure.account.oauth2.client.secret." + host, secret(config, CLIENT_SECRET));
        put(
            hadoop,
            "fs.azure.account.oauth2.client.endpoint." + host,
            tenant == null
                ? null
                : config.getString(AUTHORITY).replaceAll("/+$", "")
                    + "/"
                    + tenant
                    + "/oauth2/token");
      }
      case MANAGED_IDENTITY -> {
        oauth(hadoop, host, "org.apache.hadoop.fs.azurebfs.oauth2.MsiTokenProvider");
        put(hadoop, "fs.azure.account.oauth2.client.id." + host, clientId);
        put(hadoop, "fs.azure.account.oauth2.msi.tenant." + host, tenant);
      }
      case WORKLOAD_IDENTITY -> {
        oauth(hadoop, host, "org.apache.hadoop.fs.azurebfs.oauth2.WorkloadIdentityTokenProvider");
        put(hadoop, "fs.azure.account.oauth2.client.id." + host, clientId);
        put(hadoop, "fs.azure.account.oauth2.msi.tenant." + host, tenant);
        put(hadoop, "fs.azure.account.oauth2.token.file." + host, config.getString(TOKEN_FILE));
        // ABFS appends <tenant>/oauth2/v2.0/token to the authority.
        put(hadoop, "fs.azure.account.oauth2.msi.authority." + host, authority(config) + "/");
      }
    }
  }

  private static String authority(AbstractConfig config) {
    return config.getString(AUTHORITY).replaceAll("/+$", "");
  }

  private static void oauth(Map<String, String> hadoop, String host, String provider) {
    hadoop.put("fs.azure.account.auth.type." + host, "OAuth");
    hadoop.put("fs.azure.account.oauth.provider.type." + host, provider);
  }

  private static boolean configured(AbstractConfig config) {
    return config.getString(ACCOUNT_NAME) != null
        || config.getPassword(ACCOUNT_KEY) != null
        || config.getPassword(SAS_TOKEN) != null
        || config.getPassword(CLIENT_SECRET) != null;
  }
}
