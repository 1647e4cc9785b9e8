package io.deltacdf.connect.task.signal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signal topic, read by one task without a consumer group: the tables' offsets say which
 * signals they have acted on, so the task reads from the earliest of them. The topic has one
 * partition, as Debezium's has, so that signals keep the order they were sent in.
 *
 * <p>An unreachable cluster is not a reason to stop streaming: the channel tries again after {@link
 * #RETRY_MS}, and the signals wait in the topic.
 */
public final class SignalChannel implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SignalChannel.class);

  /** How long a call may wait for the cluster before the task goes on without signals. */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  /** How long after a failure to reach the cluster the channel tries again. */
  static final long RETRY_MS = 30_000;

  /** How often the topic is looked at. */
  static final long POLL_INTERVAL_MS = 500;

  private final String topic;
  private final String connectorName;
  private final KafkaConsumer<String, String> consumer;
  private TopicPartition partition;
  private long nextTryMs;

  /** Where reading goes on in the topic; -1 before the channel has started reading. */
  private long position = -1;

  private long endAtStart = -1;

  public SignalChannel(Map<String, Object> consumerSettings, String topic, String connectorName) {
    this.topic = topic;
    this.connectorName = connectorName;
    Map<String, Object> settings = new HashMap<>(consumerSettings);
    settings.putIfAbsent("auto.offset.reset", "earliest");
    this.consumer =
        new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer());
  }

  /**
   * The signals sent to this connector since the last call, read from {@code from} (the earliest
   * offset a table still has to act from; -1: the topic's end) on the first call; empty while the
   * cluster is unreachable or it is not yet time to look.
   *
   * @throws ConnectException when the topic has more than one partition, or is missing
   */
  public Batch poll(long from, long nowMs) {
    if (nowMs < nextTryMs) {
      return null;
    }
    nextTryMs = nowMs + POLL_INTERVAL_MS;
    try {
      if (partition == null) {
        start(from);
      }
      List<ReadSignal> signals = new ArrayList<>();
      for (ConsumerRecord<String, String> record : consumer.poll(Duration.ZERO)) {
        if (connectorName.equals(record.key())) {
          signals.add(SignalParser.parse(record.offset(), record.value()));
        }
      }
      position = consumer.position(partition, CALL_TIMEOUT);
      return new Batch(signals, position);
    } catch (ConnectException e) {
      throw e;
    } catch (KafkaException e) {
      log.warn(
          "The signal topic {} cannot be read now ({}); signals wait there, and the connector"
              + " tries again in {} s",
          topic,
          e.getMessage(),
          RETRY_MS / 1000);
      nextTryMs = nowMs + RETRY_MS;
      return null;
    }
  }

  /**
   * Signals read in one look at the topic.
   *
   * @param readTo the topic's offset every signal before which has been read
   */
  public record Batch(List<ReadSignal> signals, long readTo) {}

  /**
   * The topic's end when the channel started reading: a table that has acted on no signal yet acts
   * on those sent from there on. -1 before the first batch.
   */
  public long endAtStart() {
    return endAtStart;
  }

  private void start(long from) {
    List<PartitionInfo> partitions = consumer.partitionsFor(topic, CALL_TIMEOUT);
    if (partitions == null || partitions.isEmpty()) {
      throw new ConnectException(
          "The signal topic '"
              + topic
              + "' (signal.kafka.topic) does not exist: create it with one partition, or remove"
              + " 'kafka' from signal.enabled.channels");
    }
    if (partitions.size() != 1) {
      throw new ConnectException(
          "The signal topic '"
              + topic
              + "' (signal.kafka.topic) has "
              + partitions.size()
              + " partitions: signals must keep their order, so it must have one. Create a topic"
              + " with one partition for them");
    }
    TopicPartition only = new TopicPartition(topic, 0);
    consumer.assign(List.of(only));
    endAtStart = consumer.endOffsets(List.of(only), CALL_TIMEOUT).get(only);
    if (from >= 0) {
      consumer.seek(only, from);
    } else {
      consumer.seekToEnd(List.of(only));
    }
    position = consumer.position(only, CALL_TIMEOUT);
    partition = only;
    log.info("Signals are read from topic {} from offset {}", topic, position);
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(1));
  }
}
