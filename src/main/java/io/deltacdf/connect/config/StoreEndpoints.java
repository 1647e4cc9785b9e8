package io.deltacdf.connect.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * Where requests to a table's store go, and whether they may go there over plain HTTP. With ambient
 * credentials (an instance role, a managed or workload identity, application-default credentials)
 * every request carries the worker's own identity, so an {@code http://} endpoint would send it
 * across the network unencrypted: that takes a setting that says so.
 */
final class StoreEndpoints {

  static final String INSECURE_HTTP_ALLOWED = "storage.insecure.http.allowed";

  /** The instance metadata service: plain HTTP by design, and link-local. */
  private static final String METADATA_HOST = "169.254.169.254";

  private static final List<String> ENDPOINT_SETTINGS =
      List.of(S3Settings.ENDPOINT, AzureSettings.ENDPOINT, GcsSettings.ENDPOINT);

  /** An http:// URL's host and port: enough to name it, without a query that may hold a key. */
  private static final Pattern HTTP_URL = Pattern.compile("(?i)http://([^/:?#\\s,]*)(:\\d+)?");

  /** Hadoop keys that name a store's endpoint, or turn TLS to it off. */
  private static final Pattern ENDPOINT_KEY =
      Pattern.compile(
          "fs\\.s3a\\.(bucket\\.[^.]+\\.)?(endpoint|connection\\.ssl\\.enabled)"
              + "|fs\\.azure\\.(abfs\\.endpoint|always\\.use\\.https)"
              + "|fs\\.gs\\.storage\\.root\\.url");

  /** Hadoop switches that turn TLS off when set to false (S3A, ABFS). */
  private static final Pattern TLS_SWITCH = Pattern.compile("(?i)(ssl\\.enabled|use\\.https)$");

  private StoreEndpoints() {}

  static void define(ConfigDef def, String group, int order) {
    def.define(
        INSECURE_HTTP_ALLOWED,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "Whether a store endpoint may be plain http:// (s3.endpoint, azure.endpoint,"
            + " gcs.endpoint, or a hadoop.* setting holding an http:// URL or turning TLS off,"
            + " such as hadoop.fs.s3a.connection.ssl.enabled=false). Requests carry credentials,"
            + " also the worker's own identity with default or managed credentials, so this is"
            + " refused unless set to true, which is meant for emulators (MinIO, Azurite) and"
            + " test networks. The instance metadata endpoint "
            + METADATA_HOST
            + " is always allowed.",
        group,
        order,
        Width.SHORT,
        "Allow plain HTTP to the store");
  }

  /** Adds a problem for each setting that would reach a store over plain HTTP, unless allowed. */
  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    if (config.getBoolean(INSECURE_HTTP_ALLOWED)) {
      return;
    }
    for (String key : ENDPOINT_SETTINGS) {
      String endpoint = config.getString(key);
      String url = endpoint == null ? null : plainHttpUrl(endpoint);
      if (url != null) {
        add(problems, key, key + "=" + url);
      }
    }
    // hadoop.* keys are not connector settings, so their problems are reported on the flag.
    config
        .originalsWithPrefix(DeltaCdfSourceConfig.HADOOP_PREFIX)
        .forEach(
            (hadoopKey, value) -> {
              String key = DeltaCdfSourceConfig.HADOOP_PREFIX + hadoopKey;
              String text = String.valueOf(value);
              String url = plainHttpUrl(text);
              if (url != null) {
                add(problems, INSECURE_HTTP_ALLOWED, key + " points to " + url);
              } else if (TLS_SWITCH.matcher(hadoopKey).find()
                  && text.trim().equalsIgnoreCase("false")) {
                add(problems, INSECURE_HTTP_ALLOWED, key + "=false");
              }
            });
  }

  private static void add(Map<String, List<String>> problems, String key, String what) {
    problems
        .computeIfAbsent(key, k -> new ArrayList<>())
        .add(
            what
                + " sends requests to the store, with their credentials, over plain HTTP: use"
                + " https://, or set "
                + INSECURE_HTTP_ALLOWED
                + "=true for an emulator or a test network");
  }

  /** The first plain http:// URL in a value, other than the instance metadata service's. */
  private static String plainHttpUrl(String value) {
    Matcher url = HTTP_URL.matcher(value);
    while (url.find()) {
      if (!url.group(1).equals(METADATA_HOST)) {
        return url.group();
      }
    }
    return null;
  }

  /**
   * {@code hadoop} without the keys that send a store's requests to another endpoint (and those
   * that turn TLS off there), unless {@code storage.insecure.http.allowed}.
   */
  static Map<String, String> forCatalogTables(AbstractConfig config, Map<String, String> hadoop) {
    if (config.getBoolean(INSECURE_HTTP_ALLOWED)) {
      return hadoop;
    }
    Map<String, String> kept = new HashMap<>(hadoop);
    kept.keySet().removeIf(key -> ENDPOINT_KEY.matcher(key).matches());
    return kept;
  }

  /** Where the requests for a table go, as an operator would check it, e.g. https://host:port. */
  static String endpointOf(String tablePath, Map<String, String> hadoop) {
    int colon = tablePath.indexOf("://");
    String scheme = colon > 0 ? tablePath.substring(0, colon).toLowerCase(Locale.ROOT) : "";
    if (scheme.equals("s3") || scheme.equals("s3a")) {
      String endpoint = hadoop.get("fs.s3a.endpoint");
      if (endpoint == null || endpoint.isBlank()) {
        String region = hadoop.get("fs.s3a.endpoint.region");
        return region == null ? "AWS S3 over https" : "https://s3." + region + ".amazonaws.com";
      }
      boolean tls = !"false".equalsIgnoreCase(hadoop.get("fs.s3a.connection.ssl.enabled"));
      return withScheme(endpoint, tls);
    }
    if (scheme.equals("abfs") || scheme.equals("abfss")) {
      String endpoint = hadoop.getOrDefault("fs.azure.abfs.endpoint", hostOf(tablePath));
      boolean tls =
          scheme.equals("abfss")
              || !"false".equalsIgnoreCase(hadoop.get("fs.azure.always.use.https"));
      return withScheme(endpoint, tls);
    }
    if (scheme.equals("gs")) {
      return hadoop.getOrDefault("fs.gs.storage.root.url", "https://storage.googleapis.com");
    }
    if (scheme.isEmpty() || scheme.equals("file")) {
      return "the local file system";
    }
    return "the " + scheme + ": file system";
  }

  /** The host of {@code scheme://container@host/path}. */
  private static String hostOf(String tablePath) {
    String rest = tablePath.substring(tablePath.indexOf("://") + 3);
    String authority = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
    return authority.substring(authority.indexOf('@') + 1);
  }

  private static String withScheme(String endpoint, boolean tls) {
    if (endpoint.contains("://")) {
      return endpoint;
    }
    return (tls ? "https://" : "http://") + endpoint;
  }
}
