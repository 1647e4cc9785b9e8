package io.deltacdf.connect.config;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/**
 * Credentials of single storage accounts, for a connector whose tables lie in several accounts that
 * each need their own: azure.account.keys and azure.sas.tokens, {@code <account or host>:<secret>}
 * entries separated by ';' (neither keys nor SAS tokens contain one). An account name stands for
 * {@code <account>.dfs.core.windows.net}; OneLake and the sovereign clouds are named by host. Each
 * entry wins over the azure.* credentials for its host.
 */
final class AzureAccountCredentials {

  static final String ACCOUNT_KEYS = "azure.account.keys";
  static final String SAS_TOKENS = "azure.sas.tokens";

  private AzureAccountCredentials() {}

  /** One account's secret, and the host ABFS looks it up by. */
  record Entry(String host, String secret) {}

  static void define(ConfigDef def, String group, int order) {
    def.define(
        ACCOUNT_KEYS,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        "Shared keys of single accounts, for tables in several accounts with different keys:"
            + " <account>:<key> entries separated by ';' (an account name means"
            + " <account>.dfs.core.windows.net; give other hosts in full). Each wins over the"
            + " azure.* credentials for its account.",
        group,
        order,
        Width.LONG,
        "Azure keys per account");
    def.define(
        SAS_TOKENS,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        "SAS tokens of single accounts: <account>:<token> entries separated by ';', as"
            + " azure.account.keys.",
        group,
        order + 1,
        Width.LONG,
        "Azure SAS tokens per account");
  }

  static List<Entry> keys(AbstractConfig config) {
    return entries(config.getPassword(ACCOUNT_KEYS));
  }

  static List<Entry> sasTokens(AbstractConfig config) {
    return entries(config.getPassword(SAS_TOKENS));
  }

  /** ABFS's per-host settings of each entry. */
  static void hadoopSettings(AbstractConfig config, Map<String, String> hadoop) {
    for (Entry entry : keys(config)) {
      hadoop.put("fs.azure.account.auth.type." + entry.host(), "SharedKey");
      hadoop.put("fs.azure.account.key." + entry.host(), entry.secret());
    }
    for (Entry entry : sasTokens(config)) {
      hadoop.put("fs.azure.account.auth.type." + entry.host(), "SAS");
      hadoop.put("fs.azure.sas.fixed.token." + entry.host(), entry.secret());
    }
  }

  /** The setting holding the credential of {@code host}, when one of its entries names it. */
  static String settingFor(AbstractConfig config, String host) {
    if (keys(config).stream().anyMatch(e -> e.host().equalsIgnoreCase(host))) {
      return ACCOUNT_KEYS;
    }
    if (sasTokens(config).stream().anyMatch(e -> e.host().equalsIgnoreCase(host))) {
      return SAS_TOKENS;
    }
    return null;
  }

  /** Each secret on its own, so that one showing up alone in a message is redacted too. */
  static List<String> secrets(AbstractConfig config) {
    List<String> secrets = new ArrayList<>();
    keys(config).forEach(e -> secrets.add(e.secret()));
    sasTokens(config).forEach(e -> secrets.add(e.secret()));
    return secrets;
  }

  static void crossFieldProblems(AbstractConfig config, Map<String, List<String>> problems) {
    for (String key : List.of(ACCOUNT_KEYS, SAS_TOKENS)) {
      Password value = config.getPassword(key);
      if (value == null) {
        continue;
      }
      Map<String, Integer> seen = new LinkedHashMap<>();
      int index = 0;
      for (String raw : value.value().split(";")) {
        index++;
        if (raw.isBlank()) {
          continue;
        }
        Entry entry = parse(raw);
        // Entries are named by their place: a message must never carry the secret.
        if (entry == null) {
          add(problems, key, "Entry " + index + " is not <account>:<secret>");
          continue;
        }
        if (seen.put(entry.host().toLowerCase(java.util.Locale.ROOT), index) != null) {
          add(problems, key, "Entry " + index + " names " + entry.host() + " a second time");
        }
        if (key.equals(ACCOUNT_KEYS) && !isBase64(entry.secret())) {
          add(
              problems,
              key,
              "The key of entry "
                  + index
                  + " ("
                  + entry.host()
                  + ") is not base64, as account"
                  + " keys are");
        }
      }
    }
  }

  private static List<Entry> entries(Password value) {
    List<Entry> entries = new ArrayList<>();
    if (value == null) {
      return entries;
    }
    for (String raw : value.value().split(";")) {
      Entry entry = raw.isBlank() ? null : parse(raw);
      if (entry != null) {
        entries.add(entry);
      }
    }
    return entries;
  }

  private static Entry parse(String raw) {
    int colon = raw.indexOf(':');
    if (colon <= 0 || colon == raw.length() - 1) {
      return null;
    }
    String account = raw.substring(0, colon).trim();
    String secret = raw.substring(colon + 1).trim();
    if (account.isEmpty() || secret.isEmpty()) {
      return null;
    }
    return new Entry(account.contains(".") ? account : account + ".dfs.core.windows.net", secret);
  }

  private static boolean isBase64(String text) {
    try {
      Base64.getDecoder().decode(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void add(Map<String, List<String>> problems, String key, String message) {
    problems.computeIfAbsent(key, k -> new ArrayList<>()).add(message);
  }
}
