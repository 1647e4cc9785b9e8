package io.deltacdf.connect.task;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches that the topics a task writes take its records, and fails the task when one cannot.
 *
 * <p>On a cluster that creates no topic on first use ({@code auto.create.topics.enable=false}, as
 * on managed Kafka services), a record for a missing topic blocks Connect's send: Connect runs its
 * producers with {@code max.block.ms} at Long.MAX_VALUE, so the producer waits for the topic's
 * metadata forever, in the task's own thread. The task stays RUNNING, sends nothing, and stores no
 * position; the heartbeat topic, which a user creates least often, is the usual case. No code of
 * ours runs in that thread meanwhile, so a check from another thread ({@link #check}) looks for
 * exactly that state: records handed over for a topic that has acknowledged none of this task's
 * records yet, and the task's thread waiting in the producer for topic metadata. When that lasts
 * {@link #LIMIT}, it logs what is wrong and how to fix it, and interrupts the wait: the producer's
 * send then fails, and Connect fails the task.
 */
final class TopicDeliveries implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TopicDeliveries.class);

  /** How long the task's thread may wait for the metadata of a topic that took nothing. */
  static final Duration LIMIT = Duration.ofSeconds(30);

  /** How the topics the connector writes besides the tables' are named in messages. */
  private final MissingTopics topics;

  private final Predicate<Thread> waitsForTopicMetadata;
  private final Set<String> confirmed = ConcurrentHashMap.newKeySet();

  /** Topics not confirmed yet that were handed records, with the time of the first of them. */
  private final Map<String, Long> waitingSinceMs = new ConcurrentHashMap<>();

  /** The thread that polls the task, and so also sends its records. */
  private volatile Thread taskThread;

  /** Since when the check has seen the task's thread wait for metadata; -1 when it does not. */
  private long stuckSinceMs = -1;

  private boolean interrupted;
  private ScheduledExecutorService checks;

  TopicDeliveries(MissingTopics topics) {
    this(topics, TopicDeliveries::inProducerMetadataWait);
  }

  TopicDeliveries(MissingTopics topics, Predicate<Thread> waitsForTopicMetadata) {
    this.topics = topics;
    this.waitsForTopicMetadata = waitsForTopicMetadata;
  }

  /**
   * Starts the check, once a second, on a thread of its own: the only way to see a send that blocks
   * the task's thread.
   */
  void start() {
    checks =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "delta-cdf-topic-deliveries");
              thread.setDaemon(true);
              return thread;
            });
    checks.scheduleWithFixedDelay(() -> check(System.currentTimeMillis()), 1, 1, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    if (checks != null) {
      checks.shutdownNow();
    }
  }

  /** A poll returns {@code records} to Connect, from the task's thread. */
  void handedOver(List<SourceRecord> records, long nowMs) {
    taskThread = Thread.currentThread();
    for (SourceRecord record : records) {
      if (!confirmed.contains(record.topic())) {
        waitingSinceMs.putIfAbsent(record.topic(), nowMs);
      }
    }
  }

  /**
   * Connect acknowledged {@code record}: with metadata when Kafka stored it, without when it was
   * filtered out or dropped on the way. Called from the producer's thread.
   */
  void acknowledged(SourceRecord record, RecordMetadata metadata) {
    if (metadata != null && confirmed.add(record.topic())) {
      waitingSinceMs.remove(record.topic());
    }
  }

  /**
   * Interrupts the task's thread once it has waited {@link #LIMIT} for the metadata of a topic that
   * took nothing; returns whether it did. Called once a second from one other thread.
   */
  boolean check(long nowMs) {
    Thread thread = taskThread;
    if (interrupted
        || thread == null
        || waitingSinceMs.isEmpty()
        || !waitsForTopicMetadata.test(thread)) {
      stuckSinceMs = -1;
      return false;
    }
    if (stuckSinceMs < 0) {
      stuckSinceMs = nowMs;
    }
    if (nowMs - stuckSinceMs < LIMIT.toMillis()) {
      return false;
    }
    String topic =
        waitingSinceMs.entrySet().stream()
            .min(Comparator.comparingLong(Map.Entry::getValue))
            .map(Map.Entry::getKey)
            .orElseThrow();
    log.error("{}", undelivered(topic, (nowMs - stuckSinceMs) / 1000));
    interrupted = true;
    thread.interrupt();
    return true;
  }

  /** What the log says when the task is failed for {@code topic}. */
  String undelivered(String topic, long waitedSeconds) {
    return topics.describe(topic)
        + " has taken none of this task's records while the producer waited "
        + waitedSeconds
        + " s for its metadata: most likely the topic does not exist and the cluster creates no"
        + " topics on first use (auto.create.topics.enable=false), or the producer cannot reach"
        + " the brokers. The task is failed rather than left waiting. "
        + topics.fixes(topic);
  }

  /** Whether {@code thread} is inside the producer's wait for a topic's metadata. */
  static boolean inProducerMetadataWait(Thread thread) {
    for (StackTraceElement frame : thread.getStackTrace()) {
      if (frame.getMethodName().equals("waitOnMetadata")
          && frame.getClassName().equals("org.apache.kafka.clients.producer.KafkaProducer")) {
        return true;
      }
    }
    return false;
  }
}
