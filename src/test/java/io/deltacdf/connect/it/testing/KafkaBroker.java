package io.deltacdf.connect.it.testing;

import io.deltacdf.connect.testing.Ports;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * One in-process KRaft node acting as both broker and controller: the broker of {@link
 * KafkaCluster}. Its settings, and those of a Connect worker on such a one-node cluster, are also
 * what {@code external.ExternalKafka} gives its broker and worker JVMs, so the two harnesses differ
 * only in where they run Kafka.
 */
public final class KafkaBroker implements AutoCloseable {

  private final Map<String, String> props;
  private final String bootstrapServers;
  private KafkaRaftServer server;

  private KafkaBroker(Map<String, String> props, String bootstrapServers) {
    this.props = props;
    this.bootstrapServers = bootstrapServers;
    server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
    server.startup();
  }

  /** The two free ports a node listens on, for settings that name them (listeners). */
  public record NodePorts(int broker, int controller) {}

  /** Formats a fresh log directory under {@code dir} and starts the node on free ports. */
  public static KafkaBroker start(Path dir) {
    return start(dir, ports -> Map.of());
  }

  /**
   * As {@link #start(Path)}, with the settings {@code overrides} returns for the chosen ports added
   * or replacing those of {@link #singleNodeProperties} (e.g. a SASL listener).
   */
  public static KafkaBroker start(Path dir, Function<NodePorts, Map<String, String>> overrides) {
    int brokerPort = Ports.free();
    int controllerPort = Ports.free();
    Map<String, String> props =
        singleNodeProperties(dir.resolve("kraft"), brokerPort, controllerPort);
    props.putAll(overrides.apply(new NodePorts(brokerPort, controllerPort)));
    format(dir.resolve("server.properties"), props);
    return new KafkaBroker(props, "localhost:" + brokerPort);
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * Shuts the node down cleanly, waits {@code down}, and starts it again on the same ports and log
   * directory: clients see the broker go away and come back with every topic and transaction.
   */
  public synchronized void restart(Duration down) {
    server.shutdown();
    server.awaitShutdown();
    try {
      Thread.sleep(down.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
    server.startup();
  }

  @Override
  public synchronized void close() {
    server.shutdown();
    server.awaitShutdown();
  }

  /** The settings of a lean single-node KRaft broker and controller, in or out of process. */
  public static Map<String, String> singleNodeProperties(
      Path logDir, int brokerPort, int controllerPort) {
    Map<String, String> p = new HashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@localhost:" + controllerPort);
    p.put(
        "listeners",
        "PLAINTEXT://localhost:" + brokerPort + ",CONTROLLER://localhost:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", logDir.toString());
    // As managed Kafka services run: a topic exists only once a user or Connect created it.
    p.put("auto.create.topics.enable", "false");
    // A single node: every internal topic must fit on one replica. One partition each, because
    // creating the default 50 costs seconds and buys nothing here.
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    // A killed exactly-once worker leaves transactions open; abort them within seconds, not a
    // minute, so that a restarted worker can read its internal topics to the end.
    p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    // Lets the worker use a short session timeout, so a killed worker leaves the group quickly.
    p.put("group.min.session.timeout.ms", "1000");
    // The 128 MiB default is allocated up front.
    p.put("log.cleaner.dedupe.buffer.size", "2097152");
    // Two cores: the default pools (3 network, 8 I/O, 10 background threads) only add overhead.
    p.put("num.network.threads", "1");
    p.put("num.io.threads", "2");
    p.put("background.threads", "2");
    return p;
  }

  /**
   * The settings every distributed worker on a one-node cluster needs: group {@code group}, its
   * internal topics named after it with one replica (and one partition where Connect allows), JSON
   * converters, plugins found through META-INF/services (scanning a Spark-sized classpath costs ~10
   * s and ~500 MB) and no delayed rebalance.
   */
  public static Map<String, String> singleNodeWorkerProperties(
      String bootstrapServers, String group) {
    Map<String, String> p = new HashMap<>();
    p.put("bootstrap.servers", bootstrapServers);
    p.put("group.id", group);
    p.put("config.storage.topic", group + "-configs");
    p.put("offset.storage.topic", group + "-offsets");
    p.put("status.storage.topic", group + "-status");
    p.put("config.storage.replication.factor", "1");
    p.put("offset.storage.replication.factor", "1");
    p.put("status.storage.replication.factor", "1");
    p.put("offset.storage.partitions", "1");
    p.put("status.storage.partitions", "1");
    p.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    p.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    p.put("plugin.discovery", "service_load");
    p.put("scheduled.rebalance.max.delay.ms", "0");
    return p;
  }

  /** KRaft refuses to start on an unformatted log directory. */
  private static void format(Path configFile, Map<String, String> props) {
    Properties properties = new Properties();
    properties.putAll(props);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      try (var writer = Files.newBufferedWriter(configFile)) {
        properties.store(writer, null);
      }
      String[] args = {"format", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString()};
      int rc = StorageTool.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8));
      if (rc != 0) {
        throw new IllegalStateException("Storage format failed (" + rc + "): " + out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
