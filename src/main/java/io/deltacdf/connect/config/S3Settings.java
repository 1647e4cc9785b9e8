package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.StorageSettings.isHttp;
import static io.deltacdf.connect.config.StorageSettings.put;
import static io.deltacdf.connect.config.StorageSettings.require;
import static io.deltacdf.connect.config.StorageSettings.secret;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The s3.* settings, translated into S3A's. */
final class S3Settings {

  static final String CREDENTIALS = "s3.credentials";
  static final String ACCESS_KEY_ID = "s3.access.key.id";
  static final String SECRET_ACCESS_KEY = "s3.secret.access.key";
  static final String SESSION_TOKEN = "s3.session.token";
  static final String ASSUMED_ROLE_ARN = "s3.assumed.role.arn";
  static final String REGION = "s3.region";
  static final String ENDPOINT = "s3.endpoint";
  static final String PATH_STYLE_ACCESS = "s3.path.style.access";

  private static final String GROUP = "Amazon S3 (s3a://)";

  /** How to authenticate to S3 (s3.credentials). */
  enum Credentials {
    /** The AWS default chain. */
    DEFAULT,
    /** s3.access.key.id and s3.secret.access.key, plus s3.session.token for temporary keys. */
    STATIC,
    /** s3.assumed.role.arn, assumed with the default chain's credentials. */
    ASSUMED_ROLE
  }

  private S3Settings() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        CREDENTIALS,
        Type.STRING,
        EnumSettings.valueOf(Credentials.DEFAULT),
        Validators.oneOf(Credentials.class),
        Importance.HIGH,
        "How to authenticate to S3: default = the AWS default chain (environment, profile,"
            + " web identity, container or instance role); static = s3.access.key.id and"
            + " s3.secret.access.key (plus s3.session.token for temporary keys); assumed-role ="
            + " assume s3.assumed.role.arn with the default chain's credentials.",
        GROUP,
        ++order,
        Width.SHORT,
        "S3 credentials");
    def.define(
        ACCESS_KEY_ID,
        Type.STRING,
        null,
        Importance.HIGH,
        "The access key id, with s3.credentials=static.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "S3 access key id");
    def.define(
        SECRET_ACCESS_KEY,
        Type.PASSWORD,
        null,
        Importance.HIGH,
        "The secret access key, with s3.credentials=static. Prefer a config provider, e.g."
            + " ${file:/etc/kafka/secrets.properties:s3.secret}.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "S3 secret access key");
    def.define(
        SESSION_TOKEN,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        "The session token of temporary static credentials.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "S3 session token");
    def.define(
        ASSUMED_ROLE_ARN,
        Type.STRING,
        null,
        Importance.MEDIUM,
        "The role to assume, with s3.credentials=assumed-role.",
        GROUP,
        ++order,
        Width.LONG,
        "S3 assumed role ARN");
    def.define(
        REGION,
        Type.STRING,
        null,
        Importance.MEDIUM,
        "The bucket's region, e.g. eu-west-1. Unset: S3A works it out.",
        GROUP,
        ++order,
        Width.SHORT,
        "S3 region");
    def.define(
        ENDPOINT,
        Type.STRING,
        null,
        Importance.MEDIUM,
        "A custom endpoint for S3-compatible stores (MinIO, Ceph, ...), e.g."
            + " https://minio:9000; an http:// endpoint turns TLS off and needs"
            + " storage.insecure.http.allowed=true.",
        GROUP,
        ++order,
        Width.LONG,
        "S3 endpoint");
    def.define(
        PATH_STYLE_ACCESS,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "Address buckets as endpoint/bucket instead of bucket.endpoint, as most S3-compatible"
            + " stores need.",
        GROUP,
        ++order,
        Width.SHORT,
        "S3 path-style access");
  }

  private static Credentials credentials(AbstractConfig config) {
    return EnumSettings.parse(Credentials.class, config.getString(CREDENTIALS));
  }

  /** The setting that holds the credential, for error reports. */
  static String credentialSetting(AbstractConfig config) {
    return switch (credentials(config)) {
      case STATIC -> SECRET_ACCESS_KEY;
      case ASSUMED_ROLE -> ASSUMED_ROLE_ARN;
      case DEFAULT -> CREDENTIALS;
    };
  }

  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    Credentials credentials = credentials(config);
    String why = CREDENTIALS + "=" + EnumSettings.valueOf(credentials);
    if (credentials == Credentials.STATIC) {
      require(config, problems, ACCESS_KEY_ID, why);
      require(config, problems, SECRET_ACCESS_KEY, why);
    }
    if (credentials == Credentials.ASSUMED_ROLE) {
      require(config, problems, ASSUMED_ROLE_ARN, why);
    }
  }

  static void hadoopSettings(AbstractConfig config, Map<String, String> hadoop) {
    switch (credentials(config)) {
      case STATIC -> {
        put(hadoop, "fs.s3a.access.key", config.getString(ACCESS_KEY_ID));
        put(hadoop, "fs.s3a.secret.key", secret(config, SECRET_ACCESS_KEY));
        String token = secret(config, SESSION_TOKEN);
        put(hadoop, "fs.s3a.session.token", token);
        hadoop.put(
            "fs.s3a.aws.credentials.provider",
            token == null
                ? "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"
                : "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider");
      }
      case ASSUMED_ROLE -> {
        hadoop.put(
            "fs.s3a.aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.auth.AssumedRoleCredentialProvider");
        put(hadoop, "fs.s3a.assumed.role.arn", config.getString(ASSUMED_ROLE_ARN));
      }
      case DEFAULT -> {}
    }
    put(hadoop, "fs.s3a.endpoint.region", config.getString(REGION));
    String endpoint = config.getString(ENDPOINT);
    if (endpoint != null) {
      hadoop.put("fs.s3a.endpoint", endpoint);
      hadoop.put("fs.s3a.connection.ssl.enabled", Boolean.toString(!isHttp(endpoint)));
    }
    if (config.getBoolean(PATH_STYLE_ACCESS)) {
      hadoop.put("fs.s3a.path.style.access", "true");
    }
  }
}
