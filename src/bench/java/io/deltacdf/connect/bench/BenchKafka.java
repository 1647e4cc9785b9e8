package io.deltacdf.connect.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.ExternalKafka;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Folders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The tests' {@link ExternalKafka} (a broker and a Connect worker in JVMs of their own, from plain
 * Kafka 4.4.0 jars, the worker loading the packaged plugin folder connector/) with what only the
 * benchmark needs: producer settings for the worker, the topics it counts, and a way to time one
 * connector from registration to its last record. Not a harness of its own.
 */
final class BenchKafka implements AutoCloseable {

  /**
   * What a connector run took.
   *
   * @param workerCpuMillis CPU time the worker JVMs (all of them, see {@link #addWorker()}) used
   *     from registration to the last record
   * @param brokerCpuMillis CPU time the broker JVM used in the same time
   */
  record ConnectorRun(
      long records,
      long millis,
      long workerPeakRssMib,
      long workerCpuMillis,
      long brokerCpuMillis) {}

  private static final Duration STALL = Duration.ofMinutes(2);
  private static final List<String> BROKER_JVM = List.of("-Xmx1g");

  private final ExternalKafka kafka;
  private final ConnectRest rest;
  private final Topics topics;
  private final List<Long> additionalWorkerPids = new ArrayList<>();

  /**
   * @param workerJvm the worker's JVM options (heap, GC log, profiler)
   * @param producer producer settings, given to the worker as {@code producer.*}
   */
  BenchKafka(List<String> workerJvm, Map<String, String> producer) {
    this(workerJvm, producer, Map.of());
  }

  /** As above, with more worker properties (e.g. a plugin.path that also holds a sink). */
  BenchKafka(
      List<String> workerJvm, Map<String, String> producer, Map<String, String> workerProperties) {
    Map<String, String> worker = new HashMap<>(workerProperties);
    producer.forEach((key, value) -> worker.put("producer." + key, value));
    kafka = ExternalKafka.start(worker, BROKER_JVM, workerJvm);
    rest = new ConnectRest(kafka.connectUrl());
    topics = new Topics(kafka.bootstrapServers());
  }

  /**
   * Starts another worker in the same Connect group, so that a connector's tasks spread over two
   * JVMs (on this machine's cores all the same).
   */
  void addWorker() {
    additionalWorkerPids.add(kafka.startAdditionalWorker());
  }

  Topics topics() {
    return topics;
  }

  ConnectRest rest() {
    return rest;
  }

  /**
   * The connector config the benchmark uses: JSON without schemas, key id, one task, and no
   * tombstones, so that it sends exactly the change rows Spark's job sends.
   */
  static Map<String, String> connectorConfig(String table, String topic, String startMode) {
    return ConnectorConfig.forTables(table)
        .topicTemplate(topic)
        .keyColumns("id")
        .startMode(startMode)
        .with("tombstones.on.delete", "false")
        .with("key.converter", "org.apache.kafka.connect.json.JsonConverter")
        .with("key.converter.schemas.enable", "false")
        .with("value.converter", "org.apache.kafka.connect.json.JsonConverter")
        .with("value.converter.schemas.enable", "false")
        .build();
  }

  /**
   * {@link #connectorConfig} in output.format=json: the connector writes the JSON text itself and
   * the worker passes it on with StringConverter.
   */
  static Map<String, String> jsonConnectorConfig(String table, String topic, String startMode) {
    Map<String, String> config = connectorConfig(table, topic, startMode);
    config.put("output.format", "json");
    config
        .keySet()
        .removeIf(key -> key.startsWith("key.converter.") || key.startsWith("value.converter."));
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
    return config;
  }

  /**
   * Registers a connector writing to a fresh topic and waits for {@code expected} records: the time
   * from the registration to the broker's append of the last record.
   */
  ConnectorRun runConnector(String name, Map<String, String> config, long expected) {
    return runConnector(name, config, expected, status -> {});
  }

  /** As above, handing each connector status polled while waiting to {@code onStatus}. */
  ConnectorRun runConnector(
      String name, Map<String, String> config, long expected, Consumer<JsonNode> onStatus) {
    String topic = config.get("topic.template");
    topics.create(topic);
    long cpuBefore = workersCpuMillis();
    long brokerCpuBefore = brokerCpuMillis();
    long start = System.currentTimeMillis();
    rest.putConfig(name, config);
    long count =
        topics.awaitCount(topic, expected, STALL, () -> onStatus.accept(requireNotFailed(name)));
    if (count != expected) {
      System.out.println(
          "[bench] "
              + name
              + " stalled at "
              + count
              + " records; worker log:\n"
              + kafka.workerLogTail());
    }
    long cpuMillis = workersCpuMillis() - cpuBefore;
    long brokerCpu = brokerCpuMillis() - brokerCpuBefore;
    long millis = count == 0 ? 0 : topics.lastAppendTime(topic) - start;
    return new ConnectorRun(count, millis, workerPeakRssMib(), cpuMillis, brokerCpu);
  }

  long workerPeakRssMib() {
    return ProcStatus.peakRssMib(kafka.workerPid());
  }

  /** CPU time the broker JVM has used so far. */
  private long brokerCpuMillis() {
    return ProcStatus.cpuMillis(kafka.brokerPid());
  }

  private long workersCpuMillis() {
    long total = ProcStatus.cpuMillis(kafka.workerPid());
    for (long pid : additionalWorkerPids) {
      total += ProcStatus.cpuMillis(pid);
    }
    return total;
  }

  /** The connector's status; fails if one of its tasks failed. */
  private JsonNode requireNotFailed(String name) {
    JsonNode status = rest.get("/connectors/" + name + "/status").body();
    for (JsonNode task : status.path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        throw new IllegalStateException("Task of " + name + " failed: " + task.path("trace"));
      }
    }
    return status;
  }

  /** Adds the worker ids of the status's running tasks to {@code workers}. */
  static void workersOfRunningTasks(JsonNode status, Set<String> workers) {
    for (JsonNode task : status.path("tasks")) {
      if ("RUNNING".equals(task.path("state").asText())) {
        workers.add(task.path("worker_id").asText());
      }
    }
  }

  long workerPid() {
    return kafka.workerPid();
  }

  /** The process ids of every worker: the first, then those {@link #addWorker()} started. */
  List<Long> workerPids() {
    List<Long> pids = new ArrayList<>(List.of(kafka.workerPid()));
    pids.addAll(additionalWorkerPids);
    return pids;
  }

  String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** Stops both JVMs and deletes the topics' data (gigabytes at full scale); logs stay. */
  @Override
  public void close() {
    topics.close();
    kafka.close();
    Folders.deleteRecursively(kafka.workDir().resolve("kafka-data"));
  }
}
