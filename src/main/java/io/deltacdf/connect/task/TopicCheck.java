package io.deltacdf.connect.task;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TopicCheckSettings;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With topic.check.bootstrap.servers, checks that a topic exists before the task hands Connect its
 * first record for it. A missing topic on brokers that create none then fails the task from its own
 * poll, so the task's status names the topic and the fixes; a send that blocks inside Connect can
 * only fail with Connect's message. A check that cannot answer (brokers unreachable, no Describe
 * permission) is logged and the records go on: {@link TopicDeliveries} still guards the send. When
 * the connector's config asks Connect to create its topics (topic.creation.*), no check is made:
 * Connect creates a topic just before its first send.
 */
final class TopicCheck implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TopicCheck.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(15);

  /** The admin client; null when no check is configured. */
  private final Admin admin;

  private final MissingTopics topics;
  private final Set<String> checked = new HashSet<>();
  private boolean askedBrokers;
  private Boolean brokersCreateTopics;

  /**
   * The check {@code settings} (a task's) ask for: none without topic.check.bootstrap.servers, or
   * when Connect creates the topics.
   */
  static TopicCheck of(
      DeltaCdfSourceConfig config, Map<String, String> settings, MissingTopics topics) {
    boolean connectCreatesTopics =
        settings.keySet().stream().anyMatch(key -> key.startsWith("topic.creation.default."));
    return new TopicCheck(
        connectCreatesTopics ? null : TopicCheckSettings.clientSettings(config), topics);
  }

  /**
   * @param clientSettings the admin client's settings, null for no check
   */
  TopicCheck(Map<String, Object> clientSettings, MissingTopics topics) {
    this.admin = clientSettings == null ? null : Admin.create(clientSettings);
    this.topics = topics;
  }

  /**
   * Fails when a topic of {@code records} does not exist.
   *
   * @throws ConnectException naming the topic and the fixes
   */
  void requireTopicsOf(List<SourceRecord> records) {
    if (admin == null) {
      return;
    }
    Set<String> unchecked = new HashSet<>();
    for (SourceRecord record : records) {
      if (!checked.contains(record.topic())) {
        unchecked.add(record.topic());
      }
    }
    if (unchecked.isEmpty()) {
      return;
    }
    Map<String, KafkaFuture<TopicDescription>> described =
        admin
            .describeTopics(
                unchecked, new DescribeTopicsOptions().timeoutMs((int) TIMEOUT.toMillis()))
            .topicNameValues();
    for (String topic : unchecked) {
      try {
        described.get(topic).get(TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException
            && Boolean.FALSE.equals(brokersCreateTopics())) {
          throw new ConnectException(
              topics.describe(topic)
                  + " does not exist on the cluster at "
                  + TopicCheckSettings.BOOTSTRAP_SERVERS
                  + ", whose brokers create no topics on first use"
                  + " (auto.create.topics.enable=false): the task is failed rather than left"
                  + " waiting for it. "
                  + topics.fixes(topic));
        }
        cannotCheck(topic, e.getCause());
      } catch (TimeoutException e) {
        cannotCheck(topic, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectException("Interrupted while checking topic " + topic, e);
      }
      checked.add(topic);
    }
  }

  /**
   * Whether the brokers create a topic on its first use (auto.create.topics.enable), asked once;
   * null when the cluster does not say (no DescribeConfigs permission): a missing topic is then
   * left to the producer.
   */
  private Boolean brokersCreateTopics() {
    if (!askedBrokers) {
      askedBrokers = true;
      try {
        Node node =
            admin.describeCluster().nodes().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).stream()
                .findFirst()
                .orElseThrow();
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, node.idString());
        Config config =
            admin
                .describeConfigs(List.of(broker))
                .all()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .get(broker);
        ConfigEntry entry = config.get("auto.create.topics.enable");
        brokersCreateTopics = entry == null ? null : Boolean.valueOf(entry.value());
      } catch (ExecutionException | TimeoutException | RuntimeException e) {
        log.warn(
            "Could not tell whether the brokers create topics on first use ({}): a missing topic"
                + " is left to the producer",
            e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return brokersCreateTopics;
  }

  private void cannotCheck(String topic, Throwable cause) {
    log.warn(
        "Could not check that topic '{}' exists through topic.check.bootstrap.servers ({}); its"
            + " records are sent all the same",
        topic,
        cause.toString());
  }

  @Override
  public void close() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
    }
  }
}
