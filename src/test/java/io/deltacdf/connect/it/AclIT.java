package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.Acl;
import io.deltacdf.connect.it.testing.ChangeDescriptions;
import io.deltacdf.connect.it.testing.ConnectAcls;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SecuredBroker;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Least privilege, proven: on a broker that authorizes every request ({@link SecuredBroker}), a
 * worker principal and a separate connector producer principal with exactly the ACLs of {@link
 * ConnectAcls} (what docs/acls.md lists) stream a table end to end, with and without exactly-once;
 * one ACL fewer on the heartbeat topic fails the task with an error naming it.
 *
 * <p>Exactly-once is a worker setting (every source task of such a worker is transactional), so the
 * class runs two workers on the one broker, each in its own group.
 */
class AclIT {

  private static final String WORKER = "worker";
  private static final String CONNECTOR = "connector";
  private static final String PLAIN_GROUP = "acl-plain";
  private static final String EOS_GROUP = "acl-eos";
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir static Path dir;
  private static SecuredBroker broker;
  private static KafkaCluster plainWorker;
  private static KafkaCluster eosWorker;

  @BeforeAll
  static void start() {
    broker = SecuredBroker.start(dir.resolve("broker"), List.of(WORKER, CONNECTOR));
    plainWorker = worker(PLAIN_GROUP, false);
    eosWorker = worker(EOS_GROUP, true);
  }

  @AfterAll
  static void stop() {
    // Closed in reverse order, the workers before the broker; nulls (a failed start) skipped.
    try (SecuredBroker b = broker;
        KafkaCluster p = plainWorker;
        KafkaCluster e = eosWorker) {
      // nothing to do but close
    }
  }

  @Test
  void streamsATableWithTheDocumentedAcls() {
    String name = "acl-orders";
    List<String> expected = writeTable(name);
    List<Acl> acls = ConnectAcls.connectorProducer(CONNECTOR, List.of(name, heartbeatTopic(name)));
    broker.createTopics(name, heartbeatTopic(name));
    broker.grant(acls);

    plainWorker.rest().deploy(name, config(name).build(), WAIT);

    assertDelivered(name, expected, false);
    assertResumesAfterRestart(plainWorker, name, false);
  }

  @Test
  void streamsATableExactlyOnceWithTheDocumentedAcls() {
    String name = "acl-orders-eos";
    List<String> expected = writeTable(name);
    List<Acl> acls =
        new ArrayList<>(
            ConnectAcls.connectorProducer(CONNECTOR, List.of(name, heartbeatTopic(name))));
    acls.addAll(ConnectAcls.exactlyOnceConnectorProducer(CONNECTOR, EOS_GROUP, name, 1));
    broker.createTopics(name, heartbeatTopic(name));
    broker.grant(acls);

    eosWorker.rest().deploy(name, config(name).exactlyOnce().build(), WAIT);

    assertDelivered(name, expected, true);
    assertResumesAfterRestart(eosWorker, name, true);
  }

  @Test
  void withoutWriteOnTheHeartbeatTopicTheTaskFailsNamingIt() {
    String name = "acl-no-heartbeat";
    writeTable(name);
    List<Acl> acls =
        new ArrayList<>(
            ConnectAcls.connectorProducer(CONNECTOR, List.of(name, heartbeatTopic(name))));
    boolean removed =
        acls.removeIf(
            acl ->
                acl.operation() == AclOperation.WRITE && acl.name().equals(heartbeatTopic(name)));
    assertThat(removed).isTrue();
    // Describe alone lets the producer see the topic, so only the missing Write stops it.
    acls.add(
        Acl.literal(CONNECTOR, AclOperation.DESCRIBE, ResourceType.TOPIC, heartbeatTopic(name)));
    broker.createTopics(name, heartbeatTopic(name));
    broker.grant(acls);

    plainWorker.rest().putConfig(name, config(name).build());

    String trace = plainWorker.rest().awaitTaskFailed(name, WAIT);
    assertThat(trace).contains("TopicAuthorizationException").contains(heartbeatTopic(name));
  }

  @Test
  void connectCreatesTheTopicsWithCreateOnThemForTheWorker() {
    String name = "acl-created";
    List<String> expected = writeTable(name);
    List<String> topics = List.of(name, heartbeatTopic(name));
    List<Acl> acls = new ArrayList<>(ConnectAcls.connectorProducer(CONNECTOR, topics));
    acls.addAll(ConnectAcls.topicCreation(WORKER, topics));
    broker.grant(acls);

    plainWorker
        .rest()
        .deploy(name, config(name).withAll(ConnectorConfig.topicCreation()).build(), WAIT);

    assertDelivered(name, expected, false);
  }

  /**
   * Restarted, the task goes on from the offsets it stored, which the worker must be able to read
   * back (Read on the offsets topic): a new row arrives, and no earlier change again.
   */
  private static void assertResumesAfterRestart(
      KafkaCluster worker, String name, boolean committed) {
    ConnectRest.Response restart =
        worker.rest().post("/connectors/" + name + "/restart?includeTasks=true");
    assertThat(restart.ok()).as("restart: %s", restart).isTrue();
    worker.rest().awaitRunning(name, 1, WAIT);
    String path = dir.resolve(name).toString();
    sql("INSERT INTO delta.`%s` VALUES (4, 'd')", path);
    List<String> expected = ChangeDescriptions.ofSparkFeed(path, 0, "id", "name");
    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readAll(
            broker.bootstrapServers(),
            SecuredBroker.clientSettings(SecuredBroker.ADMIN),
            name,
            expected.size(),
            WAIT,
            committed);
    assertThat(ChangeDescriptions.ofRecords(records, "id", "name"))
        .as("changes on %s after a restart", name)
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** A worker of {@code group} whose principal has exactly {@link ConnectAcls#worker}. */
  private static KafkaCluster worker(String group, boolean exactlyOnce) {
    broker.grant(ConnectAcls.worker(WORKER, group, exactlyOnce));
    KafkaCluster.Builder builder =
        KafkaCluster.builder()
            .externalBroker(broker.bootstrapServers())
            .exactlyOnce(exactlyOnce)
            .workerProperty("group.id", group)
            .workerProperty("config.storage.topic", ConnectAcls.configTopic(group))
            .workerProperty("offset.storage.topic", ConnectAcls.offsetTopic(group))
            .workerProperty("status.storage.topic", ConnectAcls.statusTopic(group))
            // Lets a connector bring its own producer credentials.
            .workerProperty("connector.client.config.override.policy", "All");
    // The worker's own clients, and its admin clients for connectors, authenticate as WORKER;
    // the offsets consumer of exactly-once tasks too (consumer.*). Task producers get the
    // protocol here but no credentials: each connector brings its own.
    SecuredBroker.clientSettings(WORKER)
        .forEach(
            (key, value) -> {
              builder.workerProperty(key, value);
              builder.workerProperty("consumer." + key, value);
            });
    builder.workerProperty("producer.security.protocol", "SASL_PLAINTEXT");
    builder.workerProperty("producer.sasl.mechanism", "PLAIN");
    return builder.start();
  }

  /**
   * A small keyed table with inserts, an update, a delete and a last version without change rows,
   * which makes the task write a heartbeat; Spark's feed with tombstones.
   */
  private static List<String> writeTable(String name) {
    String path = dir.resolve(name).toString();
    CdfTables.keyed(path);
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b'), (3, 'c')", path);
    sql("UPDATE delta.`%s` SET name = 'bb' WHERE id = 2", path);
    sql("DELETE FROM delta.`%s` WHERE id = 3", path);
    // A version without change rows: the task stores having read it with a heartbeat.
    sql("ALTER TABLE delta.`%s` SET TBLPROPERTIES ('acl.test' = 'heartbeat')", path);
    return ChangeDescriptions.ofSparkFeed(path, 0, "id", "name");
  }

  /**
   * The connector config for a table whose topics the test creates itself, as a user would: no
   * {@code topic.creation.*}, since with it Connect looks up (Describe) each topic as the worker
   * even when it exists.
   */
  private static ConnectorConfig config(String name) {
    return ConnectorConfig.forTables(dir.resolve(name).toString())
        .withoutTopicCreation()
        .startMode("earliest")
        .keyColumns("id")
        .topicTemplate(name)
        .with("heartbeat.interval.ms", "1000")
        .with("producer.override.sasl.jaas.config", SecuredBroker.jaasConfig(CONNECTOR));
  }

  private static String heartbeatTopic(String connector) {
    return "__delta-cdf-heartbeat." + connector;
  }

  /** The change records (read as the admin) are Spark's feed; a heartbeat was written too. */
  private static void assertDelivered(String name, List<String> expected, boolean committed) {
    Map<String, String> admin = SecuredBroker.clientSettings(SecuredBroker.ADMIN);
    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readAll(
            broker.bootstrapServers(), admin, name, expected.size(), WAIT, committed);
    assertThat(ChangeDescriptions.ofRecords(records, "id", "name"))
        .containsExactlyInAnyOrderElementsOf(expected);
    assertThat(
            TopicReader.readAll(
                broker.bootstrapServers(), admin, heartbeatTopic(name), 1, WAIT, committed))
        .as("heartbeats on %s", heartbeatTopic(name))
        .isNotEmpty();
  }
}
