package io.deltacdf.connect.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/**
 * Object-store settings with names a data engineer knows, translated into the Hadoop file system
 * settings of S3A, ABFS and the GCS connector. Secrets are {@link Type#PASSWORD}s, so Connect
 * masks them, and they work with config providers ({@code ${file:...}}, {@code ${env:...}}).
 * Anything not covered here can be set as {@code hadoop.<hadoop key>}.
 */
final class StorageSettings {

  static final String S3_CREDENTIALS = "s3.credentials";
  static final String S3_ACCESS_KEY_ID = "s3.access.key.id";
  static final String S3_SECRET_ACCESS_KEY = "s3.secret.access.key";
  static final String S3_SESSION_TOKEN = "s3.session.token";
  static final String S3_ASSUMED_ROLE_ARN = "s3.assumed.role.arn";
  static final String S3_REGION = "s3.region";
  static final String S3_ENDPOINT = "s3.endpoint";
  static final String S3_PATH_STYLE_ACCESS = "s3.path.style.access";

  static final String AZURE_ACCOUNT_NAME = "azure.account.name";
  static final String AZURE_AUTH_TYPE = "azure.auth.type";
  static final String AZURE_ACCOUNT_KEY = "azure.account.key";
  static final String AZURE_SAS_TOKEN = "azure.sas.token";
  static final String AZURE_CLIENT_ID = "azure.oauth.client.id";
  static final String AZURE_CLIENT_SECRET = "azure.oauth.client.secret";
  static final String AZURE_TENANT_ID = "azure.oauth.tenant.id";
  static final String AZURE_TOKEN_FILE = "azure.workload.identity.token.file";
  static final String AZURE_ENDPOINT = "azure.endpoint";

  static final String GCS_AUTH_TYPE = "gcs.auth.type";
  static final String GCS_KEYFILE_PATH = "gcs.keyfile.path";
  static final String GCS_PROJECT_ID = "gcs.project.id";
  static final String GCS_ENDPOINT = "gcs.endpoint";

  private static final String GROUP_S3 = "Amazon S3 (s3a://)";
  private static final String GROUP_AZURE = "Azure Data Lake Storage Gen2 (abfs://, abfss://)";
  private static final String GROUP_GCS = "Google Cloud Storage (gs://)";

  private StorageSettings() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(S3_CREDENTIALS, Type.STRING, "default",
        Validators.oneOf("default", "static", "assumed-role"),
        Importance.HIGH,
        "How to authenticate to S3: default = the AWS default chain (environment, profile,"
            + " web identity, container or instance role); static = s3.access.key.id and"
            + " s3.secret.access.key (plus s3.session.token for temporary keys); assumed-role ="
            + " assume s3.assumed.role.arn with the default chain's credentials.",
        GROUP_S3, ++order, Width.SHORT, "S3 credentials");
    def.define(S3_ACCESS_KEY_ID, Type.STRING, null, Importance.HIGH,
        "The access key id, with s3.credentials=static.", GROUP_S3, ++order, Width.MEDIUM,
        "S3 access key id");
    def.define(S3_SECRET_ACCESS_KEY, Type.PASSWORD, null, Importance.HIGH,
        "The secret access key, with s3.credentials=static. Prefer a config provider, e.g."
            + " ${file:/etc/kafka/secrets.properties:s3.secret}.",
        GROUP_S3, ++order, Width.MEDIUM, "S3 secret access key");
    def.define(S3_SESSION_TOKEN, Type.PASSWORD, null, Importance.MEDIUM,
        "The session token of temporary static credentials.", GROUP_S3, ++order, Width.MEDIUM,
        "S3 session token");
    def.define(S3_ASSUMED_ROLE_ARN, Type.STRING, null, Importance.MEDIUM,
        "The role to assume, with s3.credentials=assumed-role.", GROUP_S3, ++order, Width.LONG,
        "S3 assumed role ARN");
    def.define(S3_REGION, Type.STRING, null, Importance.MEDIUM,
        "The bucket's region, e.g. eu-west-1. Unset: S3A works it out.", GROUP_S3, ++order,
        Width.SHORT, "S3 region");
    def.define(S3_ENDPOINT, Type.STRING, null, Importance.MEDIUM,
        "A custom endpoint for S3-compatible stores (MinIO, Ceph, ...), e.g."
            + " https://minio:9000; an http:// endpoint turns TLS off and needs"
            + " storage.insecure.http.allowed=true.",
        GROUP_S3, ++order, Width.LONG, "S3 endpoint");
    def.define(S3_PATH_STYLE_ACCESS, Type.BOOLEAN, false, Importance.LOW,
        "Address buckets as endpoint/bucket instead of bucket.endpoint, as most S3-compatible"
            + " stores need.",
        GROUP_S3, ++order, Width.SHORT, "S3 path-style access");

    order = 0;
    def.define(AZURE_ACCOUNT_NAME, Type.STRING, null, Importance.HIGH,
        "The storage account the azure.* settings apply to (the <account> in"
            + " abfss://container@<account>.dfs.core.windows.net/path).",
        GROUP_AZURE, ++order, Width.MEDIUM, "Azure storage account");
    def.define(AZURE_AUTH_TYPE, Type.STRING, "shared-key",
        Validators.oneOf(
            "shared-key", "sas", "client-credentials", "managed-identity", "workload-identity"),
        Importance.HIGH,
        "How to authenticate to the account: shared-key (azure.account.key), sas"
            + " (azure.sas.token), client-credentials (a service principal:"
            + " azure.oauth.client.id, azure.oauth.client.secret, azure.oauth.tenant.id),"
            + " managed-identity (optionally azure.oauth.client.id for a user-assigned identity),"
            + " workload-identity (azure.oauth.client.id, azure.oauth.tenant.id and"
            + " azure.workload.identity.token.file).",
        GROUP_AZURE, ++order, Width.MEDIUM, "Azure authentication");
    def.define(AZURE_ACCOUNT_KEY, Type.PASSWORD, null, Importance.HIGH,
        "The account key, with azure.auth.type=shared-key.", GROUP_AZURE, ++order, Width.LONG,
        "Azure account key");
    def.define(AZURE_SAS_TOKEN, Type.PASSWORD, null, Importance.HIGH,
        "A SAS token, with azure.auth.type=sas.", GROUP_AZURE, ++order, Width.LONG,
        "Azure SAS token");
    def.define(AZURE_CLIENT_ID, Type.STRING, null, Importance.MEDIUM,
        "The application (client) id of the service principal or managed identity.",
        GROUP_AZURE, ++order, Width.MEDIUM, "Azure client id");
    def.define(AZURE_CLIENT_SECRET, Type.PASSWORD, null, Importance.HIGH,
        "The service principal's client secret, with azure.auth.type=client-credentials.",
        GROUP_AZURE, ++order, Width.LONG, "Azure client secret");
    def.define(AZURE_TENANT_ID, Type.STRING, null, Importance.MEDIUM,
        "The Entra ID (Azure AD) tenant id.", GROUP_AZURE, ++order, Width.MEDIUM,
        "Azure tenant id");
    def.define(AZURE_TOKEN_FILE, Type.STRING, null, Importance.MEDIUM,
        "The federated token file of workload identity (AZURE_FEDERATED_TOKEN_FILE on AKS).",
        GROUP_AZURE, ++order, Width.LONG, "Azure workload identity token file");
    def.define(AZURE_ENDPOINT, Type.STRING, null, Importance.LOW,
        "A custom Blob/DFS endpoint such as an Azurite emulator, e.g. http://127.0.0.1:10000;"
            + " an http:// endpoint turns TLS off and needs storage.insecure.http.allowed=true.",
        GROUP_AZURE, ++order, Width.LONG, "Azure endpoint");

    order = 0;
    def.define(GCS_AUTH_TYPE, Type.STRING, "application-default",
        Validators.oneOf("application-default", "service-account-keyfile"),
        Importance.HIGH,
        "How to authenticate to GCS: application-default (GOOGLE_APPLICATION_CREDENTIALS, the"
            + " metadata server, gcloud) or service-account-keyfile (gcs.keyfile.path).",
        GROUP_GCS, ++order, Width.MEDIUM, "GCS authentication");
    def.define(GCS_KEYFILE_PATH, Type.STRING, null, Importance.HIGH,
        "The service account's JSON key file on every worker, with"
            + " gcs.auth.type=service-account-keyfile.",
        GROUP_GCS, ++order, Width.LONG, "GCS key file");
    def.define(GCS_PROJECT_ID, Type.STRING, null, Importance.LOW,
        "The Google Cloud project id.", GROUP_GCS, ++order, Width.MEDIUM, "GCS project id");
    def.define(GCS_ENDPOINT, Type.STRING, null, Importance.LOW,
        "A custom GCS root URL (for emulators or private endpoints).", GROUP_GCS, ++order,
        Width.LONG, "GCS endpoint");
  }

  /** The setting that holds the credential used for a table's store, for error reports. */
  static String credentialSettingFor(AbstractConfig config, String tablePath) {
    String scheme = schemeOf(tablePath);
    if (scheme.startsWith("s3")) {
      return switch (lower(config.getString(S3_CREDENTIALS))) {
        case "static" -> S3_SECRET_ACCESS_KEY;
        case "assumed-role" -> S3_ASSUMED_ROLE_ARN;
        default -> S3_CREDENTIALS;
      };
    }
    if (scheme.startsWith("abfs")) {
      return switch (lower(config.getString(AZURE_AUTH_TYPE))) {
        case "shared-key" -> AZURE_ACCOUNT_KEY;
        case "sas" -> AZURE_SAS_TOKEN;
        case "client-credentials" -> AZURE_CLIENT_SECRET;
        default -> AZURE_AUTH_TYPE;
      };
    }
    if (scheme.equals("gs")) {
      return lower(config.getString(GCS_AUTH_TYPE)).equals("service-account-keyfile")
          ? GCS_KEYFILE_PATH
          : GCS_AUTH_TYPE;
    }
    return null;
  }

  /** The endpoint setting of a table's store, when one is set: where connection errors belong. */
  static String endpointSettingFor(AbstractConfig config, String tablePath) {
    String scheme = schemeOf(tablePath);
    String key =
        scheme.startsWith("s3")
            ? S3_ENDPOINT
            : scheme.startsWith("abfs") ? AZURE_ENDPOINT : scheme.equals("gs") ? GCS_ENDPOINT : null;
    return key != null && config.getString(key) != null ? key : null;
  }

  /** The Hadoop settings these connector settings stand for. */
  static Map<String, String> hadoopSettings(AbstractConfig config) {
    Map<String, String> hadoop = new LinkedHashMap<>();
    // Tables written by Databricks and EMR are often named s3://: read them with S3A.
    hadoop.put("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    // ABFS otherwise sends metrics to the store from a shutdown hook, retrying for minutes
    // when the store is unreachable, which stalls a worker's shutdown.
    hadoop.put("fs.azure.metrics.collection.enabled", "false");
    // An unreachable store should surface in seconds, not after S3A's 9 minutes or the GCS
    // client's 11: the task retries on its own, with backoff, from the last delivered row.
    // Throttling (503) keeps S3A's own retries. All overridable with hadoop.*.
    hadoop.put("fs.s3a.retry.limit", "1");
    hadoop.put("fs.s3a.attempts.maximum", "0");
    hadoop.put("fs.s3a.retry.interval", "200ms");
    hadoop.put("fs.gs.http.max.retry", "1");
    // Hadoop 3.5's defaults name its own GCS module, not Google's connector that the plugin
    // bundles, and give sizes with suffixes that Google's connector cannot parse.
    hadoop.put("fs.gs.impl", "com.google.cloud.hadoop.fs.gcs.GoogleHadoopFileSystem");
    hadoop.put("fs.AbstractFileSystem.gs.impl", "com.google.cloud.hadoop.fs.gcs.GoogleHadoopFS");
    hadoop.put("fs.gs.block.size", "67108864");
    hadoop.put("fs.gs.rewrite.max.chunk.size", "536870912");
    hadoop.put("fs.gs.outputstream.buffer.size", "8388608");
    hadoop.put("fs.gs.inputstream.inplace.seek.limit", "8388608");
    hadoop.put("fs.gs.inputstream.min.range.request.size", "2097152");
    s3(config, hadoop);
    azure(config, hadoop);
    gcs(config, hadoop);
    return hadoop;
  }

  /** Settings that need one another, by the key to fix. */
  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    String s3 = lower(config.getString(S3_CREDENTIALS));
    if (s3.equals("static")) {
      require(config, problems, S3_ACCESS_KEY_ID, "s3.credentials=static");
      require(config, problems, S3_SECRET_ACCESS_KEY, "s3.credentials=static");
    }
    if (s3.equals("assumed-role")) {
      require(config, problems, S3_ASSUMED_ROLE_ARN, "s3.credentials=assumed-role");
    }
    if (azureConfigured(config)) {
      require(config, problems, AZURE_ACCOUNT_NAME, "the azure.* settings");
      String auth = lower(config.getString(AZURE_AUTH_TYPE));
      String why = "azure.auth.type=" + auth;
      switch (auth) {
        case "shared-key" -> require(config, problems, AZURE_ACCOUNT_KEY, why);
        case "sas" -> require(config, problems, AZURE_SAS_TOKEN, why);
        case "client-credentials" -> {
          require(config, problems, AZURE_CLIENT_ID, why);
          require(config, problems, AZURE_CLIENT_SECRET, why);
          require(config, problems, AZURE_TENANT_ID, why);
        }
        case "workload-identity" -> {
          require(config, problems, AZURE_CLIENT_ID, why);
          require(config, problems, AZURE_TENANT_ID, why);
          require(config, problems, AZURE_TOKEN_FILE, why);
        }
        default -> { }
      }
    }
    if (lower(config.getString(GCS_AUTH_TYPE)).equals("service-account-keyfile")) {
      require(config, problems, GCS_KEYFILE_PATH, "gcs.auth.type=service-account-keyfile");
      String keyfile = config.getString(GCS_KEYFILE_PATH);
      if (keyfile != null && !keyfile.isBlank() && !Files.isReadable(Path.of(keyfile))) {
        problems
            .computeIfAbsent(GCS_KEYFILE_PATH, k -> new ArrayList<>())
            .add("The key file " + keyfile + " cannot be read on this worker; it must exist on"
                + " every worker");
      }
    }
  }

  private static void s3(AbstractConfig config, Map<String, String> hadoop) {
    switch (lower(config.getString(S3_CREDENTIALS))) {
      case "static" -> {
        put(hadoop, "fs.s3a.access.key", config.getString(S3_ACCESS_KEY_ID));
        put(hadoop, "fs.s3a.secret.key", secret(config, S3_SECRET_ACCESS_KEY));
        String token = secret(config, S3_SESSION_TOKEN);
        put(hadoop, "fs.s3a.session.token", token);
        hadoop.put(
            "fs.s3a.aws.credentials.provider",
            token == null
                ? "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"
                : "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider");
      }
      case "assumed-role" -> {
        hadoop.put(
            "fs.s3a.aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.auth.AssumedRoleCredentialProvider");
        put(hadoop, "fs.s3a.assumed.role.arn", config.getString(S3_ASSUMED_ROLE_ARN));
      }
      default -> { }
    }
    put(hadoop, "fs.s3a.endpoint.region", config.getString(S3_REGION));
    String endpoint = config.getString(S3_ENDPOINT);
    if (endpoint != null) {
      hadoop.put("fs.s3a.endpoint", endpoint);
      hadoop.put("fs.s3a.connection.ssl.enabled", Boolean.toString(!isHttp(endpoint)));
    }
    if (config.getBoolean(S3_PATH_STYLE_ACCESS)) {
      hadoop.put("fs.s3a.path.style.access", "true");
    }
  }

  private static void azure(AbstractConfig config, Map<String, String> hadoop) {
    String account = config.getString(AZURE_ACCOUNT_NAME);
    if (account == null) {
      return;
    }
    String host = account + ".dfs.core.windows.net";
    String clientId = config.getString(AZURE_CLIENT_ID);
    String tenant = config.getString(AZURE_TENANT_ID);
    switch (lower(config.getString(AZURE_AUTH_TYPE))) {
      case "shared-key" -> {
        hadoop.put("fs.azure.account.auth.type." + host, "SharedKey");
        put(hadoop, "fs.azure.account.key." + host, secret(config, AZURE_ACCOUNT_KEY));
      }
      case "sas" -> {
        hadoop.put("fs.azure.account.auth.type." + host, "SAS");
        put(hadoop, "fs.azure.sas.fixed.token." + host, secret(config, AZURE_SAS_TOKEN));
      }
      case "client-credentials" -> {
        oauth(hadoop, host, "org.apache.hadoop.fs.azurebfs.oauth2.ClientCredsTokenProvider");
        put(hadoop, "fs.azure.account.oauth2.client.id." + host, clientId);
        put(hadoop, "fs.azure.account.oauth2.client.secret." + host,
            secret(config, AZURE_CLIENT_SECRET));
        put(hadoop, "fs.azure.account.oauth2.client.endpoint." + host,
            tenant == null ? null
                : "https://login.microsoftonline.com/" + tenant + "/oauth2/token");
      }
      case "managed-identity" -> {
        oauth(hadoop, host, "org.apache.hadoop.fs.azurebfs.oauth2.MsiTokenProvider");
        put(hadoop, "fs.azure.account.oauth2.client.id." + host, clientId);
        put(hadoop, "fs.azure.account.oauth2.msi.tenant." + host, tenant);
      }
      case "workload-identity" -> {
        oauth(hadoop, host, "org.apache.hadoop.fs.azurebfs.oauth2.WorkloadIdentityTokenProvider");
        put(hadoop, "fs.azure.account.oauth2.client.id." + host, clientId);
        put(hadoop, "fs.azure.account.oauth2.msi.tenant." + host, tenant);
        put(hadoop, "fs.azure.account.oauth2.token.file." + host,
            config.getString(AZURE_TOKEN_FILE));
      }
      default -> { }
    }
    String endpoint = config.getString(AZURE_ENDPOINT);
    if (endpoint != null) {
      hadoop.put("fs.azure.abfs.endpoint", endpoint.replaceFirst("^https?://", ""));
      if (isHttp(endpoint)) {
        hadoop.put("fs.azure.always.use.https", "false");
        // Azurite speaks plain HTTP; the default networking library insists on TLS.
        hadoop.put("fs.azure.networking.library", "JDK_HTTP_URL_CONNECTION");
      }
    }
  }

  private static void gcs(AbstractConfig config, Map<String, String> hadoop) {
    if (lower(config.getString(GCS_AUTH_TYPE)).equals("service-account-keyfile")) {
      hadoop.put("fs.gs.auth.type", "SERVICE_ACCOUNT_JSON_KEYFILE");
      put(hadoop, "fs.gs.auth.service.account.json.keyfile", config.getString(GCS_KEYFILE_PATH));
    } else {
      hadoop.put("fs.gs.auth.type", "APPLICATION_DEFAULT");
    }
    put(hadoop, "fs.gs.project.id", config.getString(GCS_PROJECT_ID));
    put(hadoop, "fs.gs.storage.root.url", config.getString(GCS_ENDPOINT));
  }

  private static void oauth(Map<String, String> hadoop, String host, String provider) {
    hadoop.put("fs.azure.account.auth.type." + host, "OAuth");
    hadoop.put("fs.azure.account.oauth.provider.type." + host, provider);
  }

  private static boolean azureConfigured(AbstractConfig config) {
    return config.getString(AZURE_ACCOUNT_NAME) != null
        || config.getPassword(AZURE_ACCOUNT_KEY) != null
        || config.getPassword(AZURE_SAS_TOKEN) != null
        || config.getPassword(AZURE_CLIENT_SECRET) != null;
  }

  private static void require(
      AbstractConfig config, Map<String, List<String>> problems, String key, String because) {
    Object value =
        config.typeOf(key) == Type.PASSWORD ? config.getPassword(key) : config.getString(key);
    if (value == null || (value instanceof String text && text.isBlank())) {
      problems
          .computeIfAbsent(key, k -> new ArrayList<>())
          .add(key + " is required with " + because);
    }
  }

  private static String secret(AbstractConfig config, String key) {
    Password password = config.getPassword(key);
    return password == null ? null : password.value();
  }

  private static void put(Map<String, String> hadoop, String key, String value) {
    if (value != null && !value.isBlank()) {
      hadoop.put(key, value);
    }
  }

  private static boolean isHttp(String endpoint) {
    return endpoint.toLowerCase(Locale.ROOT).startsWith("http://");
  }

  private static String schemeOf(String tablePath) {
    int colon = tablePath.indexOf(':');
    return colon > 0 ? lower(tablePath.substring(0, colon)) : "";
  }

  private static String lower(String value) {
    return value == null ? "" : value.toLowerCase(Locale.ROOT);
  }
}
