package io.deltacdf.connect.config;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The optional Kafka admin client a task checks its topics with: Connect hands a source task no
 * client of its own, so only with these settings can a missing topic fail the task with a message
 * in its status rather than only in the worker log.
 */
public final class TopicCheckSettings {

  public static final String BOOTSTRAP_SERVERS = "topic.check.bootstrap.servers";

  /** Settings under this prefix go to the admin client as they are (security, timeouts). */
  public static final String ADMIN_PREFIX = "topic.check.admin.";

  private static final Pattern SECRET_KEY = Pattern.compile("(?i)(password|jaas|secret|\\.key$)");

  private TopicCheckSettings() {}

  static void define(ConfigDef def, String group, int order) {
    def.define(
        BOOTSTRAP_SERVERS,
        Type.STRING,
        "",
        Importance.LOW,
        "The Kafka cluster the connector's topics are on (the workers' bootstrap.servers), for a"
            + " check that each topic exists before the task sends its first record to it. A"
            + " missing topic then fails the task with a status that names the topic and the"
            + " fixes; without this setting only the worker log names them. The admin client's"
            + " other settings (security.protocol, sasl.*, ssl.*) go under "
            + ADMIN_PREFIX
            + "*. Empty: no check.",
        group,
        order,
        Width.LONG,
        "Topic check: bootstrap servers");
  }

  /** The admin client's settings, or null when no check is configured. */
  public static Map<String, Object> clientSettings(AbstractConfig config) {
    String servers = config.getString(BOOTSTRAP_SERVERS);
    if (servers.isBlank()) {
      return null;
    }
    Map<String, Object> settings = new HashMap<>(config.originalsWithPrefix(ADMIN_PREFIX));
    settings.put("bootstrap.servers", servers);
    settings.putIfAbsent("client.id", "delta-cdf-topic-check");
    return settings;
  }

  /** Whether {@code key}, an admin client setting, holds a secret to keep out of messages. */
  static boolean secret(String key) {
    return SECRET_KEY.matcher(key).find();
  }
}
