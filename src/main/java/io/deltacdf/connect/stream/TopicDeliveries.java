package io.deltacdf.connect.stream;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The topics a task has delivered records to, and a guard on records for the others.
 *
 * <p>On a cluster that creates no topic on first use ({@code auto.create.topics.enable=false},
 * as on managed Kafka services), a record for a missing topic makes Connect retry its send
 * forever, and Connect does not poll the task again meanwhile: the task stays RUNNING and sends
 * nothing, not even the heartbeats that store its position. What Connect does call on each retry
 * is the record's own accessors, as it converts the record again. So a record for a topic that
 * has received none of this task's records yet is handed over as a {@link GuardedRecord}: read
 * again after {@link #LIMIT} with its topic still unconfirmed, it fails the conversion, and
 * with it the task, with a message that names the topic and both fixes.
 */
final class TopicDeliveries {

  /**
   * How long a record may wait for an unconfirmed topic. Connect retries a send once the
   * producer gave up waiting for the topic's metadata (max.block.ms, 60 s unless overridden), so
   * a task fails after about a minute by default.
   */
  static final Duration LIMIT = Duration.ofSeconds(15);

  private final Set<String> confirmed = ConcurrentHashMap.newKeySet();
  private final String heartbeatTopic;
  private final LongSupplier clockMs;

  TopicDeliveries(String heartbeatTopic) {
    this(heartbeatTopic, System::currentTimeMillis);
  }

  TopicDeliveries(String heartbeatTopic, LongSupplier clockMs) {
    this.heartbeatTopic = heartbeatTopic;
    this.clockMs = clockMs;
  }

  /** {@code record} itself once its topic has been confirmed, else a guarded copy of it. */
  SourceRecord guard(SourceRecord record) {
    return confirmed.contains(record.topic()) ? record : new GuardedRecord(record, this);
  }

  /**
   * Connect acknowledged {@code record}: with metadata when Kafka stored it, without when it was
   * filtered out or dropped on the way. Called from the producer's thread.
   */
  void acknowledged(SourceRecord record, RecordMetadata metadata) {
    if (metadata != null) {
      confirmed.add(record.topic());
    }
  }

  private ConnectException undelivered(String topic, long waitedMs) {
    String what =
        topic.equals(heartbeatTopic)
            ? "Heartbeat topic '" + topic + "' (setting heartbeat.topic)"
            : "Topic '" + topic + "'";
    String create =
        topic.equals(heartbeatTopic)
            ? "create it (one partition, cleanup.policy=compact)"
            : "create it";
    return new ConnectException(
        what
            + " has taken none of this task's records in "
            + waitedMs / 1000
            + " s while Connect kept retrying the send: most likely the topic does not exist and"
            + " the cluster creates no topics on first use (auto.create.topics.enable=false), or"
            + " the producer cannot reach the brokers. Either "
            + create
            + ", or let Connect create missing topics by adding"
            + " topic.creation.default.replication.factor and topic.creation.default.partitions"
            + " to the connector's config (see config-examples/); then restart the task.");
  }

  /**
   * A record whose topic has not been confirmed: Connect reads its value once per attempt to
   * send it, so a read long after the first means the sends keep failing.
   */
  private static final class GuardedRecord extends SourceRecord {

    private final TopicDeliveries deliveries;
    private long firstReadMs;

    GuardedRecord(SourceRecord record, TopicDeliveries deliveries) {
      super(
          record.sourcePartition(),
          record.sourceOffset(),
          record.topic(),
          record.kafkaPartition(),
          record.keySchema(),
          record.key(),
          record.valueSchema(),
          record.value(),
          record.timestamp(),
          record.headers());
      this.deliveries = deliveries;
    }

    @Override
    public Object value() {
      long now = deliveries.clockMs.getAsLong();
      if (firstReadMs == 0) {
        firstReadMs = now;
      } else if (now - firstReadMs >= LIMIT.toMillis()
          && !deliveries.confirmed.contains(topic())) {
        throw deliveries.undelivered(topic(), now - firstReadMs);
      }
      return super.value();
    }
  }
}
