package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The check interrupts a task's thread that waits for the metadata of a topic that has taken none
 * of its records, once that lasted the limit; never a thread whose topics took records, nor one
 * that does something else.
 */
class TopicDeliveriesTest {

  private static final long LIMIT_MS = TopicDeliveries.LIMIT.toMillis();

  /** Whether the (simulated) producer waits for topic metadata in the task's thread. */
  private final AtomicBoolean waiting = new AtomicBoolean(true);

  private final TopicDeliveries deliveries =
      new TopicDeliveries(
          new MissingTopics("__delta-cdf-heartbeat.orders", "orders-connector.transaction"),
          thread -> waiting.get());
  private final CountDownLatch interrupted = new CountDownLatch(1);
  private Thread taskThread;

  @AfterEach
  void stopTaskThread() throws InterruptedException {
    if (taskThread != null) {
      taskThread.interrupt();
      taskThread.join();
    }
  }

  private static SourceRecord record(String topic) {
    return new SourceRecord(
        Map.of("table", "t"), Map.of("version", 1L), topic, null, Schema.STRING_SCHEMA, "v");
  }

  /** A thread that hands {@code records} over, then blocks as a send would, until interrupted. */
  private void handOverAndBlock(SourceRecord... records) throws InterruptedException {
    CountDownLatch handedOver = new CountDownLatch(1);
    taskThread =
        new Thread(
            () -> {
              deliveries.handedOver(List.of(records), 0);
              handedOver.countDown();
              try {
                Thread.sleep(60_000);
              } catch (InterruptedException e) {
                interrupted.countDown();
              }
            });
    taskThread.start();
    assertThat(handedOver.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aWaitForAMissingTopicIsInterruptedOnceItLastedTheLimit() throws Exception {
    handOverAndBlock(record("__delta-cdf-heartbeat.orders"));

    assertThat(deliveries.check(1_000)).isFalse();
    assertThat(deliveries.check(1_000 + LIMIT_MS - 1)).as("within the limit").isFalse();
    assertThat(deliveries.check(1_000 + LIMIT_MS)).isTrue();
    assertThat(interrupted.await(10, TimeUnit.SECONDS))
        .as("the task's thread interrupted")
        .isTrue();
    assertThat(deliveries.check(1_000 + 2 * LIMIT_MS)).as("only once").isFalse();
  }

  @Test
  void aThreadThatStopsWaitingStartsTheLimitOver() throws Exception {
    handOverAndBlock(record("orders"));

    deliveries.check(0);
    waiting.set(false);
    deliveries.check(LIMIT_MS / 2);
    waiting.set(true);
    deliveries.check(LIMIT_MS);

    assertThat(deliveries.check(LIMIT_MS + LIMIT_MS - 1)).isFalse();
    assertThat(deliveries.check(2 * LIMIT_MS)).isTrue();
  }

  @Test
  void topicsThatTookARecordAreNotWaitedFor() throws Exception {
    SourceRecord first = record("orders");
    deliveries.acknowledged(
        first, new RecordMetadata(new TopicPartition("orders", 0), 0, 0, 0, 0, 0));
    handOverAndBlock(record("orders"));

    deliveries.check(0);
    assertThat(deliveries.check(10 * LIMIT_MS)).isFalse();
    assertThat(interrupted.getCount()).isEqualTo(1);
  }

  @Test
  void anAcknowledgementEndsTheWaitAndADroppedRecordConfirmsNothing() throws Exception {
    SourceRecord heartbeat = record("__delta-cdf-heartbeat.orders");
    handOverAndBlock(heartbeat);
    deliveries.acknowledged(heartbeat, null); // filtered out by a transform: nothing stored
    deliveries.check(0);
    assertThat(deliveries.check(LIMIT_MS)).isTrue();
  }

  @Test
  void theMessageNamesTheTopicTheSettingAndBothFixes() {
    assertThat(deliveries.undelivered("__delta-cdf-heartbeat.orders", 30))
        .startsWith("Heartbeat topic '__delta-cdf-heartbeat.orders' (setting heartbeat.topic)")
        .contains("auto.create.topics.enable=false")
        .contains("create the topic (one partition, cleanup.policy=compact)")
        .contains("topic.creation.default.replication.factor");
    assertThat(deliveries.undelivered("orders", 30))
        .startsWith("Topic 'orders' has taken none of this task's records")
        .doesNotContain("heartbeat.topic");
    assertThat(deliveries.undelivered("orders-connector.transaction", 30))
        .startsWith(
            "Transaction metadata topic 'orders-connector.transaction' (setting"
                + " topic.transaction")
        .contains("provide.transaction.metadata=true")
        .contains("topic.creation.default.replication.factor");
  }
}
