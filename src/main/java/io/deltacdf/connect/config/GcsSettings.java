package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.StorageSettings.put;
import static io.deltacdf.connect.config.StorageSettings.require;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The gcs.* settings, translated into those of Google's GCS connector. */
final class GcsSettings {

  static final String AUTH_TYPE = "gcs.auth.type";
  static final String KEYFILE_PATH = "gcs.keyfile.path";
  static final String PROJECT_ID = "gcs.project.id";
  static final String ENDPOINT = "gcs.endpoint";

  private static final String GROUP = "Google Cloud Storage (gs://)";

  /** How to authenticate to GCS (gcs.auth.type). */
  enum Auth {
    /** GOOGLE_APPLICATION_CREDENTIALS, the metadata server, gcloud. */
    APPLICATION_DEFAULT,
    /** gcs.keyfile.path. */
    SERVICE_ACCOUNT_KEYFILE
  }

  private GcsSettings() {}

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        AUTH_TYPE,
        Type.STRING,
        EnumSettings.valueOf(Auth.APPLICATION_DEFAULT),
        Validators.oneOf(Auth.class),
        Importance.HIGH,
        "How to authenticate to GCS: application-default (GOOGLE_APPLICATION_CREDENTIALS, the"
            + " metadata server, gcloud) or service-account-keyfile (gcs.keyfile.path).",
        GROUP,
        ++order,
        Width.MEDIUM,
        "GCS authentication");
    def.define(
        KEYFILE_PATH,
        Type.STRING,
        null,
        Importance.HIGH,
        "The service account's JSON key file on every worker, with"
            + " gcs.auth.type=service-account-keyfile.",
        GROUP,
        ++order,
        Width.LONG,
        "GCS key file");
    def.define(
        PROJECT_ID,
        Type.STRING,
        null,
        Importance.LOW,
        "The Google Cloud project id.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "GCS project id");
    def.define(
        ENDPOINT,
        Type.STRING,
        null,
        Importance.LOW,
        "A custom GCS root URL (for emulators or private endpoints).",
        GROUP,
        ++order,
        Width.LONG,
        "GCS endpoint");
  }

  private static boolean keyfile(AbstractConfig config) {
    return EnumSettings.parse(Auth.class, config.getString(AUTH_TYPE))
        == Auth.SERVICE_ACCOUNT_KEYFILE;
  }

  /** The setting that holds the credential, for error reports. */
  static String credentialSetting(AbstractConfig config) {
    return keyfile(config) ? KEYFILE_PATH : AUTH_TYPE;
  }

  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    if (!keyfile(config)) {
      return;
    }
    require(
        config,
        problems,
        KEYFILE_PATH,
        AUTH_TYPE + "=" + EnumSettings.valueOf(Auth.SERVICE_ACCOUNT_KEYFILE));
    String keyfile = config.getString(KEYFILE_PATH);
    if (keyfile != null && !keyfile.isBlank() && !Files.isReadable(Path.of(keyfile))) {
      problems
          .computeIfAbsent(KEYFILE_PATH, k -> new ArrayList<>())
          .add(
              "The key file "
                  + keyfile
                  + " cannot be read on this worker; it must exist on"
                  + " every worker");
    }
  }

  static void hadoopSettings(AbstractConfig config, Map<String, String> hadoop) {
    if (keyfile(config)) {
      hadoop.put("fs.gs.auth.type", "SERVICE_ACCOUNT_JSON_KEYFILE");
      put(hadoop, "fs.gs.auth.service.account.json.keyfile", config.getString(KEYFILE_PATH));
    } else {
      hadoop.put("fs.gs.auth.type", "APPLICATION_DEFAULT");
    }
    put(hadoop, "fs.gs.project.id", config.getString(PROJECT_ID));
    put(hadoop, "fs.gs.storage.root.url", config.getString(ENDPOINT));
  }
}
