package io.deltacdf.connect.it.soak;

import io.deltacdf.connect.it.testing.TopicReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A read_committed consumer that follows every soak topic while the soak runs and notes when the
 * first record of each commit version became visible, beside that version's commit time (the {@code
 * _commit_timestamp} header): their difference is the version's stall.
 */
final class ArrivalClock implements AutoCloseable {

  /** When a version's commit happened and when its first record could be read. */
  record Arrival(String topic, long version, long committedAtMs, long readAtMs) {
    long stallMs() {
      return readAtMs - committedAtMs;
    }
  }

  private final Map<String, Arrival> arrivals = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  ArrivalClock(String bootstrapServers, Pattern topics) {
    thread = new Thread(() -> follow(bootstrapServers, topics), "soak-arrival-clock");
    thread.setDaemon(true);
    thread.start();
  }

  private void follow(String bootstrapServers, Pattern topics) {
    Map<String, Object> settings =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            ConsumerConfig.GROUP_ID_CONFIG, "soak-arrival-clock",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
            // A table found under the root mid-run gets its topic then: see it within seconds.
            ConsumerConfig.METADATA_MAX_AGE_CONFIG, "2000");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(topics);
      while (!closed) {
        var records = consumer.poll(Duration.ofMillis(100));
        long now = System.currentTimeMillis();
        for (ConsumerRecord<byte[], byte[]> record : records) {
          long version = TopicReader.longHeader(record, "_commit_version");
          arrivals.computeIfAbsent(
              record.topic() + "@" + version,
              key ->
                  new Arrival(
                      record.topic(),
                      version,
                      TopicReader.longHeader(record, "_commit_timestamp"),
                      now));
        }
      }
    }
  }

  /** The versions seen so far. */
  List<Arrival> arrivals() {
    return List.copyOf(arrivals.values());
  }

  @Override
  public void close() {
    closed = true;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
