package io.deltacdf.connect.it.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic from the beginning, without a consumer group, and decodes what the worker's
 * JsonConverter and SimpleHeaderConverter wrote.
 */
public final class TopicReader {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration POLL = Duration.ofMillis(100);

  private TopicReader() {}

  /**
   * Polls until at least {@code expectedCount} records or the timeout; then returns what it has, so
   * the test can assert on (and print) a short read. A topic that does not exist yet is waited for.
   */
  public static List<ConsumerRecord<byte[], byte[]>> readAll(
      String bootstrap, String topic, int expectedCount, Duration timeout, boolean readCommitted) {
    return readAll(bootstrap, Map.of(), topic, expectedCount, timeout, readCommitted);
  }

  /** As {@link #readAll}, with more consumer settings: e.g. the credentials a broker asks for. */
  public static List<ConsumerRecord<byte[], byte[]>> readAll(
      String bootstrap,
      Map<String, String> clientSettings,
      String topic,
      int expectedCount,
      Duration timeout,
      boolean readCommitted) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        consumer(bootstrap, clientSettings, readCommitted)) {
      boolean assigned = false;
      while (records.size() < expectedCount && System.nanoTime() < deadline) {
        assigned = assigned || assignAll(consumer, topic);
        poll(consumer, assigned, records);
      }
    }
    return records;
  }

  /** Exactly {@code count} records, or the test fails naming the topic and what arrived. */
  public static List<ConsumerRecord<byte[], byte[]>> readExactly(
      String bootstrap, String topic, int count, Duration timeout) {
    List<ConsumerRecord<byte[], byte[]>> records = readAll(bootstrap, topic, count, timeout, false);
    assertThat(records).as("records on %s", topic).hasSize(count);
    return records;
  }

  /**
   * Polls until no new record arrived for {@code quiet} (counted from the call when the topic is
   * empty or missing), or until the timeout.
   */
  public static List<ConsumerRecord<byte[], byte[]>> readUntilQuiet(
      String bootstrap, String topic, Duration quiet, Duration timeout, boolean readCommitted) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long lastProgress = System.nanoTime();
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap, readCommitted)) {
      boolean assigned = false;
      while (System.nanoTime() - lastProgress < quiet.toNanos() && System.nanoTime() < deadline) {
        assigned = assigned || assignAll(consumer, topic);
        if (poll(consumer, assigned, records) > 0) {
          lastProgress = System.nanoTime();
        }
      }
    }
    return records;
  }

  /**
   * Polls, handing each non-empty batch of new records to {@code done}, until it returns true (or
   * the timeout); then goes on polling until no record arrived for {@code quietAfter}, so that
   * records trailing the awaited ones (e.g. re-deliveries) are read too. Returns every record read;
   * {@code done} decides on the batches alone, so it can keep cheap running totals.
   */
  public static List<ConsumerRecord<byte[], byte[]>> readUntil(
      String bootstrap,
      String topic,
      Predicate<List<ConsumerRecord<byte[], byte[]>>> done,
      Duration quietAfter,
      Duration timeout,
      boolean readCommitted) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap, readCommitted)) {
      boolean assigned = false;
      boolean reached = false;
      long lastProgress = 0;
      while (System.nanoTime() < deadline
          && (!reached || System.nanoTime() - lastProgress < quietAfter.toNanos())) {
        assigned = assigned || assignAll(consumer, topic);
        int before = records.size();
        if (poll(consumer, assigned, records) > 0) {
          lastProgress = System.nanoTime();
          reached |= done.test(records.subList(before, records.size()));
        }
      }
    }
    return records;
  }

  /**
   * The payload of a JsonConverter envelope ({@code {"schema":…,"payload":…}}); null for null bytes
   * (a tombstone). JSON that is not an envelope (schemas disabled) is returned whole.
   */
  public static JsonNode jsonValue(byte[] bytes) {
    JsonNode node = readJson(bytes);
    return isEnvelope(node) ? node.get("payload") : node;
  }

  /** Same decoding as {@link #jsonValue}, named for call sites reading keys. */
  public static JsonNode jsonKey(byte[] bytes) {
    return jsonValue(bytes);
  }

  /** The Connect schema of a JsonConverter envelope, e.g. to check logical types. */
  public static JsonNode jsonSchema(byte[] bytes) {
    JsonNode node = readJson(bytes);
    if (!isEnvelope(node)) {
      throw new IllegalArgumentException("Not a JsonConverter envelope: " + node);
    }
    return node.get("schema");
  }

  /**
   * The last header {@code name} as text, or null when absent or null. SimpleHeaderConverter writes
   * strings as UTF-8 and numbers and booleans as their string form.
   */
  public static String header(ConsumerRecord<?, ?> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null || header.value() == null
        ? null
        : new String(header.value(), StandardCharsets.UTF_8);
  }

  /**
   * The {@code _commit_version}s of each transaction among records read with read_committed, in
   * order: a commit marker takes an offset, so a gap between two records of a partition ends a
   * transaction. Records written without transactions make one group.
   */
  public static List<Set<Long>> commitVersionsPerTransaction(
      List<ConsumerRecord<byte[], byte[]>> records) {
    List<Set<Long>> transactions = new ArrayList<>();
    ConsumerRecord<byte[], byte[]> previous = null;
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (previous == null
          || record.partition() != previous.partition()
          || record.offset() != previous.offset() + 1) {
        transactions.add(new TreeSet<>());
      }
      transactions.get(transactions.size() - 1).add(longHeader(record, "_commit_version"));
      previous = record;
    }
    return transactions;
  }

  /** A numeric header, which must be present. */
  public static long longHeader(ConsumerRecord<?, ?> record, String name) {
    String text = header(record, name);
    if (text == null) {
      throw new AssertionError("No header " + name + " in " + record);
    }
    return Long.parseLong(text);
  }

  private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, boolean readCommitted) {
    return consumer(bootstrap, Map.of(), readCommitted);
  }

  private static KafkaConsumer<byte[], byte[]> consumer(
      String bootstrap, Map<String, String> clientSettings, boolean readCommitted) {
    Map<String, Object> settings = new HashMap<>(clientSettings);
    settings.putAll(
        Map.of(
            "bootstrap.servers",
            bootstrap,
            "enable.auto.commit",
            "false",
            "isolation.level",
            readCommitted ? "read_committed" : "read_uncommitted",
            // Reading must not create the topic: the connector's topic settings would be bypassed.
            "allow.auto.create.topics",
            "false"));
    return new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** Assigns every partition of the topic from the beginning; false while the topic is missing. */
  private static boolean assignAll(KafkaConsumer<byte[], byte[]> consumer, String topic) {
    List<TopicPartition> partitions;
    try {
      partitions =
          consumer.partitionsFor(topic, POLL).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
    } catch (TimeoutException e) {
      return false; // e.g. no leader yet for a topic being created
    }
    if (partitions.isEmpty()) {
      return false;
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    return true;
  }

  private static int poll(
      KafkaConsumer<byte[], byte[]> consumer,
      boolean assigned,
      List<ConsumerRecord<byte[], byte[]>> records) {
    if (!assigned) {
      sleep();
      return 0;
    }
    int before = records.size();
    consumer.poll(POLL).forEach(records::add);
    return records.size() - before;
  }

  private static boolean isEnvelope(JsonNode node) {
    return node != null
        && node.isObject()
        && node.size() == 2
        && node.has("schema")
        && node.has("payload");
  }

  private static JsonNode readJson(byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
