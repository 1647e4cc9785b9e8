package io.deltacdf.connect.it.testing;

import io.deltacdf.connect.it.external.testing.WorkerRuntime;
import io.deltacdf.connect.testing.ChildProcess;
import io.deltacdf.connect.testing.Ports;
import io.deltacdf.connect.testing.TestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft broker and a distributed Connect worker, each in its own JVM, run from the jars of a
 * plain Kafka installation ({@code kafka-runtime/pom.xml}) — what a user runs. The broker is Kafka
 * 4.4.0; the worker is 4.4.0 too unless a {@link WorkerRuntime} names another version or JDK.
 *
 * <p>Broker and base worker settings come from {@link KafkaBroker}, as {@code KafkaCluster}'s (the
 * in-process harness most tests use, which loads the connector from the test classpath); this one
 * exists for what only separate JVMs show. The worker's classpath holds Kafka only: it loads the
 * connector from the packaged plugin folder {@code connector/} through {@code plugin.path}, with
 * plugin isolation. A runtime jar missing from {@code connector/lib} therefore fails here, while
 * in-process tests (which load the connector from the test classpath, next to Spark) would pass.
 *
 * <p>The kafka-runtime classpath is resolved with {@code mvn} once and cached in {@code
 * target/kafka-runtime.classpath}, another worker version's in {@code
 * target/kafka-runtime-worker-<version>.classpath}; ports are chosen free at start; logs and data
 * go to a fresh folder under {@code target/external-kafka/}.
 */
public final class ExternalKafka implements AutoCloseable {

  private static final String CONNECTOR_JAR_PREFIX = "kafka-connect-delta-cdf-";
  private static final List<String> JVM_OPTIONS =
      List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration WORKER_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final int LOG_TAIL_LINES = 60;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Path repo;
  private final Path workDir;

  /** The broker, then the worker; each killed by its own shutdown hook if the JVM exits. */
  private final List<ChildProcess> processes = new ArrayList<>();

  private String bootstrapServers;
  private URI connectUrl;
  private int restPort;
  private WorkerLaunch workerLaunch;

  /** Workers started by {@link #startAdditionalWorker}: stopped before the first worker. */
  private final List<ChildProcess> additionalWorkers = new ArrayList<>();

  /** How the worker was started, so that {@link #restartWorker()} starts it alike. */
  private record WorkerLaunch(
      WorkerRuntime runtime,
      String classpath,
      List<String> jvm,
      Map<String, String> props,
      Path config) {}

  private ExternalKafka(Path repo, Path workDir) {
    this.repo = repo;
    this.workDir = workDir;
  }

  /** Starts a broker and a worker with the default worker settings. */
  public static ExternalKafka start() {
    return start(Map.of());
  }

  /**
   * Starts a broker, then a worker whose properties are the defaults overridden by {@code
   * workerOverrides} (e.g. {@code exactly.once.source.support=enabled}); returns once the worker
   * answers {@code GET /health} with 200.
   */
  public static ExternalKafka start(Map<String, String> workerOverrides) {
    return start(workerOverrides, JVM_OPTIONS, JVM_OPTIONS);
  }

  /**
   * As {@link #start(Map)}, with the broker's and the worker's JVM options instead of the lean test
   * defaults (the benchmark runs both with the normal JIT and its own heap sizes).
   */
  public static ExternalKafka start(
      Map<String, String> workerOverrides, List<String> brokerJvm, List<String> workerJvm) {
    return start(WorkerRuntime.defaults(), workerOverrides, brokerJvm, workerJvm);
  }

  /**
   * As {@link #start(Map)}, with a worker of another Kafka version or on another JDK against the
   * same Kafka 4.4.0 broker.
   */
  public static ExternalKafka start(WorkerRuntime worker, Map<String, String> workerOverrides) {
    return start(worker, workerOverrides, JVM_OPTIONS, JVM_OPTIONS);
  }

  private static ExternalKafka start(
      WorkerRuntime worker,
      Map<String, String> workerOverrides,
      List<String> brokerJvm,
      List<String> workerJvm) {
    Path repo = repoRoot();
    Path pluginDir = pluginDir(repo);
    String classpath = kafkaRuntimeClasspath(repo);
    String workerClasspath = worker.sharesBrokerJars() ? classpath : workerClasspath(repo, worker);
    Path workDir;
    try {
      Path parent = Files.createDirectories(repo.resolve("target/external-kafka"));
      workDir = Files.createTempDirectory(parent, "run-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ExternalKafka kafka = new ExternalKafka(repo, workDir);
    try {
      kafka.startBroker(classpath, brokerJvm);
      kafka.startWorker(worker, workerClasspath, pluginDir, workerOverrides, workerJvm);
      return kafka;
    } catch (RuntimeException | Error e) {
      kafka.close();
      throw e;
    }
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The worker's REST base URL, e.g. {@code http://localhost:40123/}. */
  public URI connectUrl() {
    return connectUrl;
  }

  /** Logs, configs and data of this run. */
  public Path workDir() {
    return workDir;
  }

  public Path brokerLog() {
    return workDir.resolve("broker.log");
  }

  public Path workerLog() {
    return workDir.resolve("worker.log");
  }

  /** The last lines of the worker's log, for assertion messages. */
  public String workerLogTail() {
    return tail(workerLog());
  }

  /** Stops the worker, then the broker: SIGTERM, then SIGKILL after a grace period. */
  @Override
  public void close() {
    additionalWorkers.forEach(worker -> worker.stop(STOP_GRACE));
    additionalWorkers.clear();
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).stop(STOP_GRACE);
    }
    processes.clear();
  }

  /**
   * Stops the worker gracefully (SIGTERM, as a rolling restart does) and starts it again with the
   * same runtime and properties; returns once it is healthy again.
   */
  public void restartWorker() {
    processes.remove(processes.size() - 1).stop(STOP_GRACE);
    launchWorker();
  }

  /**
   * Kills the worker with SIGKILL (no shutdown: no offset flush, open transactions left behind) and
   * starts it again with the same runtime and properties; returns once it is healthy again.
   */
  public void killAndRestartWorker() {
    processes.remove(processes.size() - 1).kill();
    launchWorker();
  }

  /**
   * Starts one more worker in the first worker's Connect group (same properties, runtime and JVM
   * options; its own REST port and log {@code worker-<n>.log}), so that tasks spread over two JVMs;
   * returns once it is healthy. {@link #workerPid()} and the restarts keep meaning the first
   * worker.
   *
   * @return the new worker's process id
   */
  public long startAdditionalWorker() {
    int number = additionalWorkers.size() + 2;
    int port = Ports.free();
    URI url = URI.create("http://localhost:" + port + "/");
    Map<String, String> props = new LinkedHashMap<>(workerLaunch.props());
    props.put("listeners", "http://localhost:" + port);
    Path file = write(workDir.resolve("worker-" + number + ".properties"), props);
    Path log = workDir.resolve("worker-" + number + ".log");
    ChildProcess worker =
        java(
            "Connect worker JVM " + number,
            workerLaunch.runtime().javaExecutable(),
            workerLaunch.classpath(),
            workerLaunch.jvm(),
            log,
            "org.apache.kafka.connect.cli.ConnectDistributed",
            file.toString());
    additionalWorkers.add(worker);
    awaitHealthy(worker, url, log);
    return worker.pid();
  }

  /** The broker JVM's process id, e.g. to read its CPU time from /proc. */
  public long brokerPid() {
    return processes.get(0).pid();
  }

  /** The worker JVM's process id, e.g. to read its peak RSS from /proc. */
  public long workerPid() {
    return processes.get(processes.size() - 1).pid();
  }

  private void startBroker(String classpath, List<String> jvm) {
    int[] ports = Ports.free(3);
    int brokerPort = ports[0];
    int controllerPort = ports[1];
    restPort = ports[2];
    Map<String, String> props =
        KafkaBroker.singleNodeProperties(workDir.resolve("kafka-data"), brokerPort, controllerPort);
    Path config = write(workDir.resolve("server.properties"), props);

    Path formatLog = workDir.resolve("format.log");
    ChildProcess format =
        java(
            "storage format",
            brokerJava(),
            classpath,
            JVM_OPTIONS,
            formatLog,
            "kafka.tools.StorageTool",
            "format",
            "-t",
            Uuid.randomUuid().toString(),
            "-c",
            config.toString());
    if (!format.awaitExit(FORMAT_TIMEOUT)) {
      format.kill();
      throw new IllegalStateException(
          "Formatting the broker's storage timed out\n" + tail(formatLog));
    }
    if (format.exitValue() != 0) {
      throw new IllegalStateException(
          "Formatting the broker's storage failed (exit "
              + format.exitValue()
              + ")\n"
              + tail(formatLog));
    }

    ChildProcess broker =
        java(
            "broker JVM",
            brokerJava(),
            classpath,
            jvm,
            brokerLog(),
            "kafka.Kafka",
            config.toString());
    processes.add(broker);
    bootstrapServers = "localhost:" + brokerPort;
    awaitBroker(broker);
  }

  private void awaitBroker(ChildProcess broker) {
    long deadline = System.nanoTime() + BROKER_TIMEOUT.toNanos();
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
    try (Admin admin = Admin.create(props)) {
      while (true) {
        requireAlive(broker);
        try {
          if (!admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
            return;
          }
        } catch (ExecutionException | java.util.concurrent.TimeoutException notYet) {
          // Still starting.
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "The broker did not start within " + BROKER_TIMEOUT + "\n" + tail(brokerLog()));
        }
        TestSupport.sleep(200);
      }
    }
  }

  private static Path brokerJava() {
    return WorkerRuntime.defaults().javaExecutable();
  }

  private void startWorker(
      WorkerRuntime runtime,
      String classpath,
      Path pluginDir,
      Map<String, String> overrides,
      List<String> jvm) {
    Map<String, String> props =
        new LinkedHashMap<>(
            KafkaBroker.singleNodeWorkerProperties(bootstrapServers, "external-connect"));
    props.put("listeners", "http://localhost:" + restPort);
    props.put("plugin.path", pluginDir.toString());
    props.put("offset.flush.interval.ms", "1000");
    props.putAll(overrides);
    Path config = write(workDir.resolve("worker.properties"), props);
    workerLaunch = new WorkerLaunch(runtime, classpath, jvm, Map.copyOf(props), config);
    connectUrl = URI.create("http://localhost:" + restPort + "/");
    launchWorker();
  }

  private void launchWorker() {
    ChildProcess worker =
        java(
            "Connect worker JVM",
            workerLaunch.runtime().javaExecutable(),
            workerLaunch.classpath(),
            workerLaunch.jvm(),
            workerLog(),
            "org.apache.kafka.connect.cli.ConnectDistributed",
            workerLaunch.config().toString());
    processes.add(worker);
    awaitHealthy(worker, connectUrl, workerLog());
  }

  private void awaitHealthy(ChildProcess worker, URI url, Path log) {
    long deadline = System.nanoTime() + WORKER_TIMEOUT.toNanos();
    HttpRequest health =
        HttpRequest.newBuilder(url.resolve("health")).timeout(Duration.ofSeconds(5)).GET().build();
    while (true) {
      requireAlive(worker);
      try {
        if (HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // Not listening yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "The Connect worker was not healthy within " + WORKER_TIMEOUT + "\n" + tail(log));
      }
      TestSupport.sleep(250);
    }
  }

  private ChildProcess java(
      String name,
      Path java,
      String classpath,
      List<String> jvm,
      Path log,
      String mainClass,
      String... args) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(jvm);
    command.add("-Dlog4j2.configurationFile=" + repo.resolve("kafka-runtime/log4j2.xml").toUri());
    // Read by a Kafka 3.x worker only (log4j 1); log4j2 ignores it.
    command.add("-Dlog4j.configuration=" + repo.resolve("kafka-runtime/log4j.properties").toUri());
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(Arrays.asList(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    // The worker must see no classpath but the one given here.
    builder.environment().remove("CLASSPATH");
    try {
      return ChildProcess.start(name, builder, log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void requireAlive(ChildProcess process) {
    if (!process.isAlive()) {
      throw new IllegalStateException(process.exitReport(LOG_TAIL_LINES));
    }
  }

  /** The folder holding pom.xml and kafka-runtime/, from the working directory upwards. */
  public static Path repoRoot() {
    Path dir =
        Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    for (Path d = dir; d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("pom.xml"))
          && Files.isRegularFile(d.resolve("kafka-runtime/pom.xml"))) {
        return d;
      }
    }
    throw new IllegalStateException(
        "No folder with pom.xml and kafka-runtime/pom.xml above " + dir);
  }

  /** The packaged plugin folder {@code connector/}; fails when {@code mvn package} has not run. */
  public static Path pluginDir(Path repo) {
    Path pluginDir = repo.resolve("connector");
    try (Stream<Path> jars = Files.list(pluginDir.resolve("lib"))) {
      if (jars.anyMatch(p -> p.getFileName().toString().startsWith(CONNECTOR_JAR_PREFIX))) {
        return pluginDir;
      }
    } catch (IOException missing) {
      // Reported below.
    }
    throw new IllegalStateException(
        "No packaged plugin in "
            + pluginDir
            + ": run 'mvn -DskipTests package' first (mvn verify packages before integration tests)");
  }

  /**
   * The Kafka runtime's classpath, resolved by Maven from kafka-runtime/pom.xml once and cached in
   * target/kafka-runtime.classpath (re-resolved when that pom is newer than the cache).
   */
  public static String kafkaRuntimeClasspath(Path repo) {
    return cachedClasspath(repo, "kafka-runtime.classpath", List.of());
  }

  /** The jars of a worker of another Kafka version, without the broker (-Dworker.only). */
  public static String workerClasspath(Path repo, WorkerRuntime worker) {
    return cachedClasspath(
        repo,
        "kafka-runtime-worker-" + worker.kafkaVersion() + ".classpath",
        worker.mavenProperties());
  }

  private static synchronized String cachedClasspath(
      Path repo, String cacheName, List<String> mavenProperties) {
    Path pom = repo.resolve("kafka-runtime/pom.xml");
    Path cache = repo.resolve("target").resolve(cacheName);
    try {
      if (!Files.isRegularFile(cache)
          || Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(pom)) < 0) {
        resolveClasspath(repo, pom, cache, mavenProperties);
      }
      String classpath = Files.readString(cache, StandardCharsets.UTF_8).trim();
      requireKafkaOnly(repo, classpath);
      return classpath;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void resolveClasspath(
      Path repo, Path pom, Path cache, List<String> mavenProperties) throws IOException {
    Files.createDirectories(cache.getParent());
    Path partial = Files.createTempFile(cache.getParent(), "kafka-runtime", ".classpath.tmp");
    Path log = cache.resolveSibling(cache.getFileName() + ".log");
    List<String> command =
        new ArrayList<>(
            List.of(
                mavenCommand(),
                "-q",
                "-B",
                "-f",
                pom.toString(),
                "dependency:build-classpath",
                "-Dmdep.outputFile=" + partial));
    command.addAll(mavenProperties);
    Process mvn =
        new ProcessBuilder(command)
            .directory(repo.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!mvn.waitFor(10, TimeUnit.MINUTES) || mvn.exitValue() != 0) {
        mvn.destroyForcibly();
        throw new IllegalStateException(
            "Resolving the Kafka runtime with Maven failed ("
                + String.join(" ", command)
                + ")\n"
                + tail(log));
      }
    } catch (InterruptedException e) {
      mvn.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Files.move(partial, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static String mavenCommand() {
    String home = System.getProperty("maven.home", System.getenv("MAVEN_HOME"));
    if (home != null && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
      return Path.of(home, "bin", "mvn").toString();
    }
    return "mvn";
  }

  /** The whole point: the worker must not find the connector anywhere but in plugin.path. */
  private static void requireKafkaOnly(Path repo, String classpath) {
    Path target = repo.resolve("target").toAbsolutePath();
    Path plugin = repo.resolve("connector").toAbsolutePath();
    for (String entry : classpath.split(java.io.File.pathSeparator)) {
      Path path = Path.of(entry).toAbsolutePath();
      if (path.startsWith(target)
          || path.startsWith(plugin)
          || path.getFileName().toString().startsWith(CONNECTOR_JAR_PREFIX)) {
        throw new IllegalStateException(
            "The Kafka runtime classpath contains the connector (" + entry + ")");
      }
    }
  }

  private static Path write(Path file, Map<String, String> props) {
    Properties properties = new Properties();
    properties.putAll(props);
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(writer, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  private static String tail(Path log) {
    try {
      List<String> lines =
          new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
      return String.join(
          "\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    } catch (IOException e) {
      return "(no log at " + log + ")";
    }
  }
}
