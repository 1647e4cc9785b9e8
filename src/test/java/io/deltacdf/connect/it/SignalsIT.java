package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import javax.management.JMException;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signals and notifications through a real worker with exactly-once, on a broker that creates no
 * topics: an execute-snapshot with a condition while changes flow (its rows are Spark's rows of
 * that partition at the snapshot's version, each key keeps its order, and no change is lost or
 * repeated), rejected signals, a pause that survives a restart, a resume sent while the worker is
 * down, and the notifications of each on the notification topic and over JMX.
 *
 * <p>CI size: one table of a dozen rows; {@code -Dsignals.rows=N} writes N rows instead.
 */
class SignalsIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final int ROWS = Integer.getInteger("signals.rows", 12);
  private static final String CONNECTOR = "sig";
  private static final String TOPIC = "sig-orders";
  private static final String SIGNALS = "delta-signals";
  private static final String NOTIFICATIONS = "delta-notifications";

  @TempDir static Path dir;
  private static KafkaCluster cluster;
  private static String path;
  private static String customers;

  @BeforeAll
  static void writeTableAndStartCluster() {
    path = dir.resolve("orders").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, region STRING, amount INT) USING delta"
            + " PARTITIONED BY (region) TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql(
        "INSERT INTO delta.`%s` SELECT id, IF(id %% 2 = 0, 'eu', 'us'), 1 FROM range(0, %d)",
        path, ROWS);
    sql("UPDATE delta.`%s` SET amount = 2 WHERE id < 4", path);
    sql("DELETE FROM delta.`%s` WHERE id = 1", path);
    customers = dir.resolve("customers").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, region STRING, amount INT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        customers);
    sql("INSERT INTO delta.`%s` SELECT id, 'eu', 1 FROM range(0, %d)", customers, ROWS);
    cluster = KafkaCluster.builder().exactlyOnce(true).start();
    cluster.createTopic(SIGNALS, 1);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void signalsSteerTheTableAndNotificationsTellWhatHappened() throws Exception {
    cluster
        .rest()
        .deploy(
            CONNECTOR,
            ConnectorConfig.forTables(path)
                .startMode("earliest")
                .keyColumns("id")
                .topicTemplate(TOPIC)
                .exactlyOnce()
                .with(
                    "record.format", "envelope",
                    "heartbeat.interval.ms", "1000",
                    "signal.enabled.channels", "kafka",
                    "signal.kafka.topic", SIGNALS,
                    "signal.kafka.bootstrap.servers", cluster.bootstrapServers(),
                    "notification.enabled.channels", "sink,jmx",
                    "notification.sink.topic.name", NOTIFICATIONS)
                .build(),
            WAIT);
    readEvents(changeCount());

    // A snapshot of the eu partition, signalled while a change to it is written.
    signal(
        "snap-1",
        "execute-snapshot",
        "{\"data-collections\":[\""
            + path
            + "\"],\"additional-conditions\":[{\"data-collection\":\""
            + path
            + "\",\"filter\":\"region = 'eu'\"}]}");
    sql("UPDATE delta.`%s` SET amount = amount + 100 WHERE region = 'eu' AND id < 6", path);
    JsonNode completed = awaitNotification("Blocking Snapshot", "COMPLETED");
    long snapshotVersion = completed.get("additional_data").get("version").asLong();
    assertThat(notificationTypes())
        .containsSubsequence("Signal/ACCEPTED", "Blocking Snapshot/STARTED")
        .containsSubsequence("Blocking Snapshot/STARTED", "Blocking Snapshot/COMPLETED");

    List<ConsumerRecord<byte[], byte[]>> events = readEvents(changeCount() + eu(snapshotVersion));
    assertThat(snapshotRows(events))
        .as("the snapshot's rows: Spark's eu rows at version %d", snapshotVersion)
        .isEqualTo(sparkRows(snapshotVersion, "region = 'eu'"));
    assertThat(changeEvents(events)).as("every change once, none lost").isEqualTo(changeCount());
    assertKeysKeepTheirOrder(events);
    assertThat(applied(events))
        .as("the table as the events rebuild it")
        .isEqualTo(sparkRows(-1, "true"));

    // Signals no task acts on, and a condition on a column that is not a partition column, are
    // rejected, and the task goes on.
    signal("bad-table", "pause", "{\"data-collections\":[\"/no/such/table\"]}");
    send("not json");
    signal(
        "bad-condition",
        "execute-snapshot",
        "{\"data-collections\":[\""
            + path
            + "\"],\"additional-conditions\":[{\"data-collection\":\""
            + path
            + "\",\"filter\":\"amount > 3\"}]}");
    awaitNotificationCount("Signal", "REJECTED", 3);
    assertThat(
            notifications(NOTIFICATIONS).stream()
                .filter(n -> n.get("type").asText().equals("REJECTED")))
        .extracting(n -> n.get("additional_data").get("reason").asText())
        .anyMatch(reason -> reason.contains("not a partition column"));

    // A pause holds across a restart; a resume sent while the worker is down is done.
    signal("pause-1", "pause", "{\"data-collections\":[\"" + path + "\"]}");
    awaitNotification("Table", "PAUSED");
    sql("INSERT INTO delta.`%s` VALUES (1000, 'us', 7)", path);
    cluster.stopWorker();
    cluster.startWorker();
    Thread.sleep(8_000);
    assertThat(ids(readEvents(0))).as("nothing read while paused").doesNotContain(1000L);
    cluster.stopWorker();
    signal("resume-1", "resume", "{\"data-collections\":[\"" + path + "\"]}");
    cluster.startWorker();
    awaitNotification("Table", "RESUMED");
    events = readEvents(changeCount() + eu(snapshotVersion));
    assertThat(ids(events)).contains(1000L);
    assertThat(snapshotRows(events).size())
        .as("the snapshot was done once, not again after the restarts")
        .isEqualTo(eu(snapshotVersion));
    assertThat(changeEvents(events)).isEqualTo(changeCount());
    assertThat(jmxNotifications()).anyMatch(n -> n.contains("\"RESUMED\""));
  }

  @Test
  void aSnapshotPausedHalfWayCanBeStoppedAndTheChangesAfterItGoOn() throws Exception {
    String connector = "sig2";
    String topic = "sig2-customers";
    String notices = "sig2-notifications";
    cluster
        .rest()
        .deploy(
            connector,
            ConnectorConfig.forTables(customers)
                .startMode("snapshot")
                .keyColumns("id")
                .topicTemplate(topic)
                .exactlyOnce()
                .with(
                    "record.format", "envelope",
                    "batch.max.rows", "1",
                    "max.rows.per.second", "2",
                    "signal.enabled.channels", "kafka",
                    "signal.kafka.topic", SIGNALS,
                    "signal.kafka.bootstrap.servers", cluster.bootstrapServers(),
                    "notification.enabled.channels", "sink",
                    "notification.sink.topic.name", notices)
                .build(),
            WAIT);
    awaitNotification(notices, "Initial Snapshot", "STARTED");
    String table = "{\"data-collections\":[\"" + customers + "\"]}";

    signal(connector, "pause-2", "pause", table);
    awaitNotification(notices, "Table", "PAUSED");
    int sent = events(topic, Duration.ofSeconds(2)).size();
    Thread.sleep(3_000);
    assertThat(events(topic, Duration.ofSeconds(1))).as("nothing sent while paused").hasSize(sent);
    assertThat(sent).as("paused half way through the snapshot").isLessThan(ROWS);

    signal(connector, "stop-2", "stop-snapshot", table);
    awaitNotification(notices, "Initial Snapshot", "ABORTED");
    signal(connector, "resume-2", "resume", table);
    awaitNotification(notices, "Table", "RESUMED");
    sql("INSERT INTO delta.`%s` VALUES (2000, 'us', 5)", customers);
    List<ConsumerRecord<byte[], byte[]>> events = events(topic, Duration.ofSeconds(3));
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!ids(events).contains(2000L) && System.nanoTime() < deadline) {
      events = events(topic, Duration.ofSeconds(3));
    }

    assertThat(events.stream().filter(e -> op(e).equals("r")))
        .as("the stopped snapshot sent no more rows")
        .hasSize(sent);
    assertThat(events.stream().filter(e -> !op(e).equals("r")).map(SignalsIT::id))
        .as("the changes after the snapshot's version")
        .containsExactly(2000L);
    assertThat(notificationTypes(notices))
        .containsSubsequence(
            "Initial Snapshot/STARTED",
            "Signal/ACCEPTED",
            "Table/PAUSED",
            "Signal/ACCEPTED",
            "Initial Snapshot/ABORTED",
            "Signal/ACCEPTED",
            "Table/RESUMED");
  }

  /** The change events on {@code topic} until none came for {@code quiet}. */
  private static List<ConsumerRecord<byte[], byte[]>> events(String topic, Duration quiet) {
    return TopicReader.readUntilQuiet(cluster.bootstrapServers(), topic, quiet, WAIT, true).stream()
        .filter(r -> r.value() != null)
        .toList();
  }

  /** Change events (c, u, d) Spark's table_changes implies: inserts, postimages and deletes. */
  private static int changeCount() {
    return (int)
        spark()
            .sql(
                String.format(
                    "SELECT * FROM table_changes_by_path('%s', 0) WHERE _change_type !="
                        + " 'update_preimage'",
                    path))
            .count();
  }

  private static int eu(long version) {
    return sparkRows(version, "region = 'eu'").size();
  }

  /** id -> "region/amount" of the table's rows at {@code version} (-1: latest) that pass. */
  private static Map<Long, String> sparkRows(long version, String condition) {
    String table =
        version < 0
            ? String.format("delta.`%s`", path)
            : String.format("delta.`%s` VERSION AS OF %d", path, version);
    Map<Long, String> rows = new TreeMap<>();
    for (Row row :
        spark()
            .sql(String.format("SELECT id, region, amount FROM %s WHERE %s", table, condition))
            .collectAsList()) {
      rows.put(row.getLong(0), row.getString(1) + "/" + row.getInt(2));
    }
    return rows;
  }

  /**
   * The topic's change events from its start: at least {@code atLeast}, and those that follow
   * within 3 s.
   */
  private static List<ConsumerRecord<byte[], byte[]>> readEvents(int atLeast) {
    int[] seen = {0};
    return TopicReader.readUntil(
            cluster.bootstrapServers(),
            TOPIC,
            batch -> {
              seen[0] += (int) batch.stream().filter(r -> r.value() != null).count();
              return seen[0] >= atLeast;
            },
            Duration.ofSeconds(3),
            WAIT,
            true)
        .stream()
        .filter(r -> r.value() != null)
        .toList();
  }

  private static String op(ConsumerRecord<byte[], byte[]> event) {
    return TopicReader.jsonValue(event.value()).get("op").asText();
  }

  private static long id(ConsumerRecord<byte[], byte[]> event) {
    return TopicReader.jsonKey(event.key()).get("id").asLong();
  }

  private static List<Long> ids(List<ConsumerRecord<byte[], byte[]>> events) {
    return events.stream().map(SignalsIT::id).toList();
  }

  private static Map<Long, String> snapshotRows(List<ConsumerRecord<byte[], byte[]>> events) {
    Map<Long, String> rows = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> event : events) {
      if (op(event).equals("r")) {
        assertThat(rows.put(id(event), describe(event)))
            .as("snapshot row %d twice", id(event))
            .isNull();
      }
    }
    return rows;
  }

  private static long changeEvents(List<ConsumerRecord<byte[], byte[]>> events) {
    return events.stream().filter(e -> !op(e).equals("r")).count();
  }

  private static String describe(ConsumerRecord<byte[], byte[]> event) {
    JsonNode after = TopicReader.jsonValue(event.value()).get("after");
    return after.get("region").asText() + "/" + after.get("amount").asInt();
  }

  /** Per key, commit versions never go back: the snapshot sits between the changes around it. */
  private static void assertKeysKeepTheirOrder(List<ConsumerRecord<byte[], byte[]>> events) {
    Map<Long, Long> lastVersion = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> event : events) {
      long version =
          TopicReader.jsonValue(event.value()).get("source").get("commit_version").asLong();
      Long before = lastVersion.put(id(event), version);
      assertThat(version)
          .as("version of key %d after %s", id(event), before)
          .isGreaterThanOrEqualTo(before == null ? 0 : before);
    }
  }

  /** The table the events rebuild: r, c and u write the row, d removes it. */
  private static Map<Long, String> applied(List<ConsumerRecord<byte[], byte[]>> events) {
    Map<Long, String> rows = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> event : events) {
      if (op(event).equals("d")) {
        rows.remove(id(event));
      } else {
        rows.put(id(event), describe(event));
      }
    }
    return rows;
  }

  private static void signal(String id, String type, String data) throws Exception {
    signal(CONNECTOR, id, type, data);
  }

  private static void signal(String connector, String id, String type, String data)
      throws Exception {
    send(connector, "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"data\":" + data + "}");
  }

  private static void send(String value) throws InterruptedException, ExecutionException {
    send(CONNECTOR, value);
  }

  private static void send(String connector, String value)
      throws InterruptedException, ExecutionException {
    Properties props = new Properties();
    props.put("bootstrap.servers", cluster.bootstrapServers());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(SIGNALS, connector, value)).get();
    }
  }

  private static List<JsonNode> notifications(String topic) {
    return TopicReader.readAll(
            cluster.bootstrapServers(), topic, Integer.MAX_VALUE, Duration.ofSeconds(2), true)
        .stream()
        .map(r -> TopicReader.jsonValue(r.value()))
        .toList();
  }

  private static List<String> notificationTypes() {
    return notificationTypes(NOTIFICATIONS);
  }

  private static List<String> notificationTypes(String topic) {
    return notifications(topic).stream()
        .map(n -> n.get("aggregate_type").asText() + "/" + n.get("type").asText())
        .toList();
  }

  private static JsonNode awaitNotification(String aggregateType, String type)
      throws InterruptedException {
    return awaitNotification(NOTIFICATIONS, aggregateType, type);
  }

  private static JsonNode awaitNotification(String topic, String aggregateType, String type)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      for (JsonNode n : notifications(topic)) {
        if (n.get("aggregate_type").asText().equals(aggregateType)
            && n.get("type").asText().equals(type)) {
          return n;
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        "No " + aggregateType + "/" + type + " notification; seen: " + notificationTypes(topic));
  }

  private static void awaitNotificationCount(String aggregateType, String type, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String wanted = aggregateType + "/" + type;
    while (notificationTypes().stream().filter(wanted::equals).count() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            count + " x " + wanted + " expected; seen: " + notificationTypes());
      }
      Thread.sleep(500);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> jmxNotifications() {
    try {
      return (List<String>)
          cluster
              .workerMBeans()
              .getAttribute(
                  new ObjectName(
                      "io.deltacdf.connect:type=notifications,connector="
                          + ObjectName.quote(CONNECTOR)
                          + ",task=0"),
                  "Notifications");
    } catch (JMException e) {
      throw new AssertionError(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
