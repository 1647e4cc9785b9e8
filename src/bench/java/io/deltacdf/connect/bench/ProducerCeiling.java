package io.deltacdf.connect.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The write ceiling: one plain KafkaProducer sends as many records as the connector wrote, cycling
 * through records sampled from the connector's topic (same keys, values and headers, so the same
 * average size and compressibility), with the same producer settings.
 */
final class ProducerCeiling {

  private ProducerCeiling() {}

  /**
   * What a ceiling took: milliseconds from the first send to the last append, and the CPU this
   * (driver) JVM spent making and sending the records.
   */
  record Run(long millis, long cpuMillis) {}

  /** Sends {@code count} records to {@code topic}. */
  static Run run(
      Topics topics,
      String topic,
      long count,
      List<ConsumerRecord<byte[], byte[]>> sample,
      Map<String, String> settings) {
    return send(
        topics,
        topic,
        count,
        settings,
        i -> {
          ConsumerRecord<byte[], byte[]> template = sample.get((int) (i % sample.size()));
          return new ProducerRecord<>(
              topic, null, template.key(), template.value(), template.headers());
        });
  }

  /**
   * Sends {@code recordAt(0)} to {@code recordAt(count - 1)} through one producer with {@code
   * settings}, fails if any send failed, and returns what it took.
   */
  static Run send(
      Topics topics,
      String topic,
      long count,
      Map<String, String> settings,
      LongFunction<ProducerRecord<byte[], byte[]>> recordAt) {
    topics.create(topic);
    Map<String, Object> config = new HashMap<>(settings);
    config.put("bootstrap.servers", topics.bootstrapServers());
    AtomicReference<Exception> failure = new AtomicReference<>();
    long start = System.currentTimeMillis();
    long cpuBefore = ProcStatus.ownCpuMillis();
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (long i = 0; i < count; i++) {
        producer.send(
            recordAt.apply(i),
            (metadata, e) -> {
              if (e != null) {
                failure.compareAndSet(null, e);
              }
            });
      }
      producer.flush();
    }
    if (failure.get() != null) {
      throw new IllegalStateException("A ceiling producer failed", failure.get());
    }
    long cpuMillis = ProcStatus.ownCpuMillis() - cpuBefore;
    return new Run(topics.lastAppendTime(topic) - start, cpuMillis);
  }
}
