package io.deltacdf.connect.it.testing;

import io.deltacdf.connect.testing.ChildProcess;
import io.deltacdf.connect.testing.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.connect.cli.ConnectDistributed;

/**
 * A worker in a child JVM, so that it can be killed with SIGKILL: the only way to crash a worker
 * for real (no task stop, no final offset commit, transactions left open). It runs either on the
 * test classpath, or as a user's worker does: on Kafka's own runtime jars only, loading the
 * packaged plugin folder {@code connector/} through {@code plugin.path} with plugin isolation.
 */
public final class ForkedWorker implements ConnectWorker {

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
  private static final int LOG_TAIL_LINES = 40;

  private final ChildProcess process;
  private final URI url;
  private final Path log;

  private ForkedWorker(ChildProcess process, URI url, Path log) {
    this.process = process;
    this.url = url;
    this.log = log;
  }

  /** Starts the child JVM; {@code dir} receives worker.properties and worker.log. */
  public static ForkedWorker start(Map<String, String> props, Path dir) {
    return start(props, dir, null);
  }

  /**
   * As {@link #start(Map, Path)}, with the child's root log level set to {@code logLevel} (e.g.
   * INFO, everything Connect logs in production) instead of the test classpath's WARN; null keeps
   * log4j2-test.xml. The log goes to worker.log either way.
   */
  public static ForkedWorker start(Map<String, String> props, Path dir, String logLevel) {
    return start(props, dir, logLevel, false);
  }

  /**
   * As {@link #start(Map, Path, String)}; with {@code packagedPlugin}, on Kafka's runtime classpath
   * ({@code kafka-runtime/pom.xml}) with {@code plugin.path=connector/}, so that a jar missing from
   * the plugin fails as it would for a user. It logs at WARN unless {@code logLevel} says
   * otherwise.
   */
  public static ForkedWorker start(
      Map<String, String> props, Path dir, String logLevel, boolean packagedPlugin) {
    int port = Ports.free();
    Properties properties = new Properties();
    // docs/performance.md's recipe for small heaps: each task's producer may hold buffer.memory,
    // and a worker that takes over a killed one's tasks runs five of them in 256 MiB.
    properties.put("producer.buffer.memory", Integer.toString(8 << 20));
    properties.putAll(props);
    properties.put("listeners", "http://localhost:" + port);
    String classpath = System.getProperty("java.class.path");
    if (packagedPlugin) {
      Path repo = ExternalKafka.repoRoot();
      classpath = ExternalKafka.kafkaRuntimeClasspath(repo);
      properties.put("plugin.path", ExternalKafka.pluginDir(repo).toString());
    }
    Path config = dir.resolve("worker.properties");
    Path log = dir.resolve("worker.log");
    try (Writer writer = Files.newBufferedWriter(config)) {
      properties.store(writer, null);
      List<String> command =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:TieredStopAtLevel=1",
                  "-XX:+UseSerialGC"));
      if (logLevel != null || packagedPlugin) {
        // Kafka's runtime classpath has no log4j2-test.xml.
        command.add(
            "-Dlog4j2.configurationFile=" + logConfig(dir, logLevel == null ? "WARN" : logLevel));
      }
      command.addAll(
          List.of("-cp", classpath, ConnectDistributed.class.getName(), config.toString()));
      ProcessBuilder builder = new ProcessBuilder(command);
      // The worker sees no classpath but the one given here.
      builder.environment().remove("CLASSPATH");
      ChildProcess process = ChildProcess.start("worker JVM", builder, log);
      return new ForkedWorker(process, URI.create("http://localhost:" + port + "/"), log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A log4j2 configuration like log4j2-test.xml, to standard output, at {@code level}. */
  private static Path logConfig(Path dir, String level) throws IOException {
    Path file = dir.resolve("worker-log4j2.xml");
    Files.writeString(
        file,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Configuration status="WARN">
          <Appenders>
            <Console name="console" target="SYSTEM_OUT">
              <PatternLayout pattern="[%d] %-5level %m (%c)%n"/>
            </Console>
          </Appenders>
          <Loggers>
            <Logger name="org.apache.spark.sql.delta.DeltaParquetFileFormat" level="OFF"/>
            <Root level="LEVEL">
              <AppenderRef ref="console"/>
            </Root>
          </Loggers>
        </Configuration>
        """
            .replace("LEVEL", level));
    return file;
  }

  /** The child JVM's process id, e.g. to sample its memory. */
  public long pid() {
    return process.pid();
  }

  /** The file receiving the child's standard output and error (appended across restarts). */
  public Path log() {
    return log;
  }

  @Override
  public URI url() {
    return url;
  }

  @Override
  public String deathReport() {
    if (process.isAlive()) {
      return null;
    }
    return process.exitReport(LOG_TAIL_LINES);
  }

  /** SIGTERM: Connect's own shutdown hook stops the worker gracefully, as in production. */
  @Override
  public void stop() {
    process.stop(STOP_TIMEOUT);
  }

  /** SIGKILL. */
  @Override
  public void kill() {
    process.kill();
  }
}
