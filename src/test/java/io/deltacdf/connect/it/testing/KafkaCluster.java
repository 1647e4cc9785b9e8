package io.deltacdf.connect.it.testing;

import io.deltacdf.connect.testing.Folders;
import io.deltacdf.connect.testing.TestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import javax.management.MBeanServerConnection;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * One in-process KRaft broker plus one distributed Connect worker, for end-to-end tests.
 *
 * <p>The worker runs as a user's does (the default, {@link WorkerKind#PACKAGED_PLUGIN}): in a child
 * JVM on Kafka's runtime jars only, loading the packaged plugin folder {@code connector/} through
 * plugin isolation. A test that cannot run so says why and picks another {@link WorkerKind} (see
 * docs/testing.md). {@code ExternalKafka}, the other harness, also runs the broker from plain Kafka
 * jars in a JVM of its own (the compatibility matrix, the packaging tests and the benchmark). Both
 * take their broker and base worker settings from {@link KafkaBroker}.
 *
 * <p>The worker can be stopped and started again on the same broker and internal topics, so a
 * restarted worker resumes from the stored offsets. A worker in a child JVM can also be {@link
 * #killWorker() killed}, and {@link #startAdditionalWorker() joined} by more workers in the same
 * Connect group.
 */
public final class KafkaCluster implements AutoCloseable {

  /** Where the worker runs and where it loads the connector from. */
  public enum WorkerKind {
    /**
     * A child JVM on Kafka's runtime jars only, {@code plugin.path=connector/}: as users run it.
     */
    PACKAGED_PLUGIN,
    /** A child JVM on the test classpath, no plugin isolation (Spark and Hadoop beside it). */
    FORKED_ON_TEST_CLASSPATH,
    /** This JVM, on the test classpath: starts in a fraction of a second, but cannot crash. */
    IN_PROCESS
  }

  private static final Duration WORKER_START_TIMEOUT = Duration.ofSeconds(60);

  private final Path dir;
  private final KafkaBroker broker;
  private final String bootstrapServers;
  private final Map<String, String> workerProps;
  private final WorkerKind workerKind;
  private final List<Path> pluginPath;
  private final String workerLogLevel;
  private final List<AdditionalWorker> additionalWorkers = new ArrayList<>();
  private ConnectWorker worker;
  private ConnectRest rest;

  private KafkaCluster(Builder builder) throws IOException {
    pluginPath = pluginPath(builder); // fails before a broker starts when connector/ is missing
    dir = Files.createTempDirectory("kafka-cluster-");
    try {
      broker =
          builder.externalBootstrapServers == null
              ? KafkaBroker.start(dir, ports -> builder.extraBrokerProps)
              : null;
    } catch (RuntimeException e) {
      Folders.deleteRecursively(dir);
      throw e;
    }
    bootstrapServers =
        broker == null ? builder.externalBootstrapServers : broker.bootstrapServers();
    workerProps = workerProps(bootstrapServers, builder);
    workerKind = builder.workerKind;
    workerLogLevel = builder.workerLogLevel;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The REST base URL of the running worker; it changes when the worker is restarted. */
  public URI connectUrl() {
    return running().url();
  }

  /** A client for the running worker; fetch it again after a restart (new port). */
  public ConnectRest rest() {
    running();
    return rest;
  }

  /** Starts the worker and waits until {@code GET /health} answers 200. */
  public void startWorker() {
    if (worker != null) {
      throw new IllegalStateException("The worker is already running");
    }
    ConnectWorker started =
        workerKind == WorkerKind.IN_PROCESS
            ? InProcessWorker.start(workerProps)
            : ForkedWorker.start(workerProps, dir, workerLogLevel, pluginPath);
    ConnectRest startedRest = new ConnectRest(started.url(), started::deathReport);
    awaitHealthy(started, startedRest);
    worker = started;
    rest = startedRest;
  }

  /**
   * The log file of the (forked) worker: everything it wrote to standard output and error, over all
   * its starts. Not with {@link WorkerKind#IN_PROCESS}: that worker logs with the test JVM.
   */
  public Path workerLog() {
    if (workerKind == WorkerKind.IN_PROCESS) {
      throw new IllegalStateException("Only a separate worker JVM has its own log file");
    }
    return dir.resolve("worker.log");
  }

  /**
   * Starts one more worker, in its own child JVM, in the same Connect group (same internal topics),
   * and waits until it answers {@code GET /health}. It shares the load with the main worker after
   * the next rebalance. Not with {@link WorkerKind#IN_PROCESS}. The cluster stops it on {@link
   * #close()} if the test has not.
   */
  public AdditionalWorker startAdditionalWorker() {
    if (workerKind == WorkerKind.IN_PROCESS) {
      throw new IllegalStateException("Additional workers run in child JVMs, not in process");
    }
    Path workerDir = dir.resolve("worker-" + (additionalWorkers.size() + 2));
    try {
      Files.createDirectories(workerDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ForkedWorker started = ForkedWorker.start(workerProps, workerDir, workerLogLevel, pluginPath);
    ConnectRest startedRest = new ConnectRest(started.url(), started::deathReport);
    awaitHealthy(started, startedRest);
    AdditionalWorker added = new AdditionalWorker(started, startedRest);
    additionalWorkers.add(added);
    return added;
  }

  /** Stops the worker gracefully: tasks stop and commit their offsets. No-op when stopped. */
  public void stopWorker() {
    if (worker != null) {
      ConnectWorker stopping = worker;
      worker = null;
      stopping.stop();
    }
  }

  /**
   * Crashes the worker (SIGKILL): tasks are not stopped, offsets since the last periodic flush (500
   * ms; widen it with {@code workerProperty("offset.flush.interval.ms", …)}) are lost, and open
   * transactions stay open until the next task instance fences them. Not with {@link
   * WorkerKind#IN_PROCESS}. The next {@link #startWorker()} takes ~5 s: the group waits for the
   * dead member's session to expire.
   */
  public void killWorker() {
    running().kill();
    worker = null;
  }

  /** The process id of the main worker's own JVM (not with an in-process worker). */
  public long workerPid() {
    if (!(running() instanceof ForkedWorker forked)) {
      throw new IllegalStateException("Only a separate worker JVM has a process id of its own");
    }
    return forked.pid();
  }

  /**
   * Restarts the in-process broker (see {@link KafkaBroker#restart}): it is away for {@code down},
   * then back on the same port with its topics. Not with {@link Builder#externalBroker}.
   */
  public void restartBroker(Duration down) {
    if (broker == null) {
      throw new IllegalStateException("The broker runs elsewhere: restart it there");
    }
    broker.restart(down);
  }

  /**
   * The running worker's MBeans (the connector's metrics): over JMX from a child JVM, directly in
   * process. Fetch it again after a restart.
   */
  public MBeanServerConnection workerMBeans() {
    return running().mbeans();
  }

  /**
   * Creates a topic with one replica, as a user does on a cluster that creates no topic on first
   * use (every broker the tests start runs so).
   */
  public void createTopic(String topic, int partitions) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("Creating topic " + topic + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Whether {@code topic} exists on the broker. */
  public boolean topicExists(String topic) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      return admin.listTopics().names().get().contains(topic);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Listing topics failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    try {
      for (AdditionalWorker additional : additionalWorkers) {
        additional.stop();
      }
      stopWorker();
    } finally {
      try {
        if (broker != null) {
          broker.close();
        }
      } finally {
        Folders.deleteRecursively(dir);
      }
    }
  }

  private ConnectWorker running() {
    if (worker == null) {
      throw new IllegalStateException("The worker is not running");
    }
    return worker;
  }

  /** Waits for {@code GET /health}; kills (reaps) the worker if it never gets there. */
  private static void awaitHealthy(ConnectWorker worker, ConnectRest rest) {
    long deadline = System.nanoTime() + WORKER_START_TIMEOUT.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      String death = worker.deathReport();
      if (death != null) {
        worker.kill(); // only a forked worker dies: this just reaps the process
        throw new IllegalStateException(death);
      }
      try {
        ConnectRest.Response health = rest.get("/health");
        if (health.status() == 200) {
          return;
        }
        last = health.toString();
      } catch (UncheckedIOException e) {
        last = e.getMessage(); // a forked worker is not listening yet
      }
      TestSupport.sleep(100);
    }
    try {
      worker.kill();
    } catch (UnsupportedOperationException e) {
      worker.stop(); // in-process
    }
    throw new IllegalStateException(
        "Connect worker not healthy after " + WORKER_START_TIMEOUT + ": " + last);
  }

  /** connector/ and the builder's extra plugin folders; empty on the test classpath. */
  private static List<Path> pluginPath(Builder builder) {
    if (builder.workerKind != WorkerKind.PACKAGED_PLUGIN) {
      if (!builder.extraPluginFolders.isEmpty()) {
        throw new IllegalStateException("Plugin folders need the PACKAGED_PLUGIN worker");
      }
      return List.of();
    }
    List<Path> folders = new ArrayList<>();
    folders.add(ExternalKafka.pluginDir(ExternalKafka.repoRoot()));
    folders.addAll(builder.extraPluginFolders);
    return List.copyOf(folders);
  }

  private static Map<String, String> workerProps(String bootstrapServers, Builder builder) {
    // A fresh group and fresh internal topics per cluster: clusters never share state.
    String group = "connect-" + UUID.randomUUID().toString().substring(0, 8);
    Map<String, String> p = KafkaBroker.singleNodeWorkerProperties(bootstrapServers, group);
    p.put("key.converter.schemas.enable", "true");
    p.put("value.converter.schemas.enable", "true");
    p.put("offset.flush.interval.ms", "500");
    p.put("listeners", "http://localhost:0");
    // Short enough that a killed worker leaves the group within seconds; the rebalance timeout
    // also caps every REST call to the herder, so it stays generous.
    p.put("session.timeout.ms", "5000");
    p.put("heartbeat.interval.ms", "1000");
    p.put("rebalance.timeout.ms", "20000");
    if (builder.exactlyOnce) {
      p.put("exactly.once.source.support", "enabled");
      // Transactions of a killed worker time out quickly (see KafkaBroker).
      p.put("producer.transaction.timeout.ms", "10000");
    }
    p.putAll(builder.extraWorkerProps);
    return p;
  }

  /** A worker started by {@link #startAdditionalWorker()}: its own child JVM, REST port and log. */
  public static final class AdditionalWorker {

    private final ForkedWorker worker;
    private final ConnectRest rest;
    private boolean running = true;

    private AdditionalWorker(ForkedWorker worker, ConnectRest rest) {
      this.worker = worker;
      this.rest = rest;
    }

    public ConnectRest rest() {
      return rest;
    }

    /** The id Connect reports for this worker in statuses ({@code host:port}). */
    public String workerId() {
      return rest.workerId();
    }

    public Path log() {
      return worker.log();
    }

    public long pid() {
      return worker.pid();
    }

    /** SIGKILL, as {@link KafkaCluster#killWorker()}. */
    public void kill() {
      if (running) {
        running = false;
        worker.kill();
      }
    }

    /** Graceful stop (SIGTERM). No-op once stopped or killed. */
    public void stop() {
      if (running) {
        running = false;
        worker.stop();
      }
    }
  }

  /** Options; {@link #start()} starts the broker and the worker. */
  public static final class Builder {

    private boolean exactlyOnce;
    private WorkerKind workerKind = WorkerKind.PACKAGED_PLUGIN;
    private final List<Path> extraPluginFolders = new ArrayList<>();
    private String workerLogLevel;
    private final Map<String, String> extraWorkerProps = new HashMap<>();
    private final Map<String, String> extraBrokerProps = new HashMap<>();
    private String externalBootstrapServers;

    private Builder() {}

    /** Uses a broker started elsewhere (e.g. in a container) instead of an in-process one. */
    public Builder externalBroker(String bootstrapServers) {
      externalBootstrapServers = bootstrapServers;
      return this;
    }

    /** Sets {@code exactly.once.source.support=enabled} on the worker. */
    public Builder exactlyOnce(boolean enabled) {
      exactlyOnce = enabled;
      return this;
    }

    /**
     * Where the worker runs; {@link WorkerKind#PACKAGED_PLUGIN}, as users run it, unless the test
     * cannot (say why where you call this, and in docs/testing.md). The packaged plugin needs
     * {@code mvn package} (which {@code mvn verify} runs before the integration tests); the first
     * use resolves Kafka's runtime with Maven and caches it in {@code
     * target/kafka-runtime.classpath}. A worker starts in 3.5–5 s in a child JVM, under 1 s in
     * process.
     */
    public Builder worker(WorkerKind kind) {
      workerKind = kind;
      return this;
    }

    /**
     * One more folder on the packaged worker's {@code plugin.path}, after {@code connector/}: a
     * plugin the test deploys beside ours (a converter, a sink), loaded with its own isolation.
     */
    public Builder pluginFolder(Path folder) {
      extraPluginFolders.add(folder);
      return this;
    }

    /**
     * The root log level of forked workers (e.g. {@code "INFO"}, what Connect logs in production);
     * unset, they log at the test classpath's WARN. See {@link KafkaCluster#workerLog()}.
     */
    public Builder workerLogLevel(String level) {
      workerLogLevel = level;
      return this;
    }

    /** Adds or overrides one worker property (applies to every start). */
    public Builder workerProperty(String key, String value) {
      extraWorkerProps.put(key, value);
      return this;
    }

    /**
     * Adds or overrides one setting of the in-process broker (e.g. how often it checks retention);
     * ignored with {@link #externalBroker}.
     */
    public Builder brokerProperty(String key, String value) {
      extraBrokerProps.put(key, value);
      return this;
    }

    public KafkaCluster start() {
      KafkaCluster cluster;
      try {
        cluster = new KafkaCluster(this);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      try {
        cluster.startWorker();
        return cluster;
      } catch (RuntimeException e) {
        cluster.close();
        throw e;
      }
    }
  }
}
