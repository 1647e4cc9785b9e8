package io.deltacdf.connect.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * Connect converts a record again on each attempt to send it: a record for a topic that took
 * nothing yet fails once it has waited too long, and one for a topic that took a record never.
 */
class TopicDeliveriesTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final TopicDeliveries deliveries =
      new TopicDeliveries("__delta-cdf-heartbeat.orders", now::get);

  private static SourceRecord record(String topic) {
    return new SourceRecord(
        Map.of("table", "t"), Map.of("version", 1L), topic, null, Schema.STRING_SCHEMA, "v");
  }

  @Test
  void aRecordReadAgainLongAfterItsFirstReadFailsWhileItsTopicTookNothing() {
    SourceRecord guarded = deliveries.guard(record("__delta-cdf-heartbeat.orders"));
    assertThat(guarded.value()).isEqualTo("v"); // the first attempt
    now.addAndGet(TopicDeliveries.LIMIT.toMillis() - 1);
    assertThat(guarded.value()).isEqualTo("v"); // a retry within the limit
    now.addAndGet(1);

    assertThatThrownBy(guarded::value)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Heartbeat topic '__delta-cdf-heartbeat.orders'")
        .hasMessageContaining("auto.create.topics.enable=false")
        .hasMessageContaining("topic.creation.default.replication.factor");
  }

  @Test
  void aDataTopicIsNamedWithoutTheHeartbeatSetting() {
    SourceRecord guarded = deliveries.guard(record("orders"));
    guarded.value();
    now.addAndGet(TopicDeliveries.LIMIT.toMillis());

    assertThatThrownBy(guarded::value)
        .hasMessageStartingWith("Topic 'orders' has taken none of this task's records in 15 s");
  }

  @Test
  void onceATopicTookARecordItsRecordsAreNeitherGuardedNorFailed() {
    SourceRecord first = deliveries.guard(record("orders"));
    first.value();
    deliveries.acknowledged(
        first, new RecordMetadata(new TopicPartition("orders", 0), 0, 0, 0, 0, 0));
    now.addAndGet(TopicDeliveries.LIMIT.toMillis() * 2);

    assertThat(first.value()).isEqualTo("v");
    SourceRecord next = record("orders");
    assertThat(deliveries.guard(next)).isSameAs(next);
  }

  @Test
  void aRecordDroppedOnTheWayConfirmsNothing() {
    deliveries.acknowledged(deliveries.guard(record("orders")), null);

    SourceRecord next = record("orders");
    assertThat(deliveries.guard(next)).isNotSameAs(next);
  }
}
