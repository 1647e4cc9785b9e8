package io.deltacdf.connect.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The benchmark's view of the broker. Topics have one partition and LogAppendTime timestamps: a
 * record's timestamp is when the broker appended it, so the last record's timestamp is when a run
 * ended, whoever produced it, and waiting for the end costs only an offset lookup now and then.
 */
final class Topics implements AutoCloseable {

  private static final long CHECK_MILLIS = 250;

  private final String bootstrapServers;
  private final Admin admin;

  Topics(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
    this.admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers));
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  void create(String topic) {
    NewTopic newTopic =
        new NewTopic(topic, 1, (short) 1)
            .configs(Map.of("message.timestamp.type", "LogAppendTime"));
    get(admin.createTopics(List.of(newTopic)).all());
  }

  /** Deletes a topic and its data (a warm-up pass writes as much as a measured one). */
  void delete(String topic) {
    get(admin.deleteTopics(List.of(topic)).all());
  }

  long count(String topic) {
    TopicPartition partition = new TopicPartition(topic, 0);
    return get(admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all())
        .get(partition)
        .offset();
  }

  /**
   * Waits until {@code topic} holds {@code expected} records; returns the count reached, short when
   * nothing arrived for {@code stall} (or more, which the caller reports as a failure).
   */
  long awaitCount(String topic, long expected, Duration stall, Runnable whileWaiting) {
    long last = -1;
    long lastProgress = System.nanoTime();
    while (true) {
      long count = count(topic);
      if (count >= expected) {
        return count;
      }
      if (count != last) {
        last = count;
        lastProgress = System.nanoTime();
      } else if (System.nanoTime() - lastProgress > stall.toNanos()) {
        return count;
      }
      whileWaiting.run();
      sleep(CHECK_MILLIS);
    }
  }

  /** The broker's append time of the last record. */
  long lastAppendTime(String topic) {
    long count = count(topic);
    return read(topic, count - 1, 1).get(0).timestamp();
  }

  /** Up to {@code max} records from {@code offset} on. */
  List<ConsumerRecord<byte[], byte[]>> read(String topic, long offset, int max) {
    TopicPartition partition = new TopicPartition(topic, 0);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of("bootstrap.servers", bootstrapServers, "enable.auto.commit", "false"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.assign(Set.of(partition));
      consumer.seek(partition, offset);
      long end = count(topic);
      while (records.size() < max && consumer.position(partition) < end) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          if (records.size() < max) {
            records.add(record);
          }
        }
      }
    }
    return records;
  }

  /** Records from five evenly spread places of the topic: inserts, updates and deletes alike. */
  List<ConsumerRecord<byte[], byte[]>> sample(String topic, int perPlace) {
    long count = count(topic);
    List<ConsumerRecord<byte[], byte[]>> sample = new ArrayList<>();
    for (int place = 0; place < 5; place++) {
      long from = Math.max(0, Math.min(count - perPlace, count * place / 5));
      sample.addAll(read(topic, from, perPlace));
    }
    return sample;
  }

  /** Average serialized size of key, value and headers of {@code records}. */
  static double averageBytes(List<ConsumerRecord<byte[], byte[]>> records) {
    long bytes = 0;
    for (ConsumerRecord<byte[], byte[]> record : records) {
      bytes += Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
      for (var header : record.headers()) {
        bytes += header.key().length() + (header.value() == null ? 0 : header.value().length);
      }
    }
    return records.isEmpty() ? 0 : (double) bytes / records.size();
  }

  @Override
  public void close() {
    admin.close();
  }

  private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
    try {
      return future.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
