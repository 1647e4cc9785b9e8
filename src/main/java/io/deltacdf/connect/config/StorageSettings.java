package io.deltacdf.connect.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/**
 * Object-store settings with names a data engineer knows, translated into the Hadoop file system
 * settings of S3A, ABFS and the GCS connector. Secrets are {@link Type#PASSWORD}s, so Connect masks
 * them, and they work with config providers ({@code ${file:...}}, {@code ${env:...}}). Anything not
 * covered here can be set as {@code hadoop.<hadoop key>}.
 */
final class StorageSettings {

  private StorageSettings() {}

  static void define(ConfigDef def) {
    S3Settings.define(def);
    AzureSettings.define(def);
    GcsSettings.define(def);
  }

  /** The setting that holds the credential used for a table's store, for error reports. */
  static String credentialSettingFor(AbstractConfig config, String tablePath) {
    String scheme = schemeOf(tablePath);
    if (scheme.startsWith("s3")) {
      return S3Settings.credentialSetting(config);
    }
    if (scheme.startsWith("abfs")) {
      return AzureSettings.credentialSetting(config, tablePath);
    }
    if (scheme.equals("gs")) {
      return GcsSettings.credentialSetting(config);
    }
    return null;
  }

  /** The endpoint setting of a table's store, when one is set: where connection errors belong. */
  static String endpointSettingFor(AbstractConfig config, String tablePath) {
    String scheme = schemeOf(tablePath);
    String key =
        scheme.startsWith("s3")
            ? S3Settings.ENDPOINT
            : scheme.startsWith("abfs")
                ? AzureSettings.ENDPOINT
                : scheme.equals("gs") ? GcsSettings.ENDPOINT : null;
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
    S3Settings.hadoopSettings(config, hadoop);
    AzureSettings.hadoopSettings(config, hadoop);
    GcsSettings.hadoopSettings(config, hadoop);
    return hadoop;
  }

  /** Settings that need one another, by the key to fix. */
  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    S3Settings.crossFieldProblems(config, problems);
    AzureSettings.crossFieldProblems(config, problems);
    GcsSettings.crossFieldProblems(config, problems);
  }

  static void require(
      AbstractConfig config, Map<String, List<String>> problems, String key, String because) {
    Object value =
        config.typeOf(key) == Type.PASSWORD ? config.getPassword(key) : config.getString(key);
    if (value == null || (value instanceof String text && text.isBlank())) {
      problems
          .computeIfAbsent(key, k -> new ArrayList<>())
          .add(key + " is required with " + because);
    }
  }

  static String secret(AbstractConfig config, String key) {
    Password password = config.getPassword(key);
    return password == null ? null : password.value();
  }

  static void put(Map<String, String> hadoop, String key, String value) {
    if (value != null && !value.isBlank()) {
      hadoop.put(key, value);
    }
  }

  /** Whether a URL is plain http://, in any case: URI parsers take HTTP:// as http://. */
  static boolean isHttp(String endpoint) {
    return endpoint.trim().toLowerCase(Locale.ROOT).startsWith("http://");
  }

  private static String schemeOf(String tablePath) {
    int colon = tablePath.indexOf(':');
    return colon > 0 ? lower(tablePath.substring(0, colon)) : "";
  }

  private static String lower(String value) {
    return value == null ? "" : value.toLowerCase(Locale.ROOT);
  }
}
