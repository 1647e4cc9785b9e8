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
import java.util.stream.Collectors;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.kafka.connect.cli.ConnectDistributed;

/**
 * A worker in a child JVM, so that it can be killed with SIGKILL: the only way to crash a worker
 * for real (no task stop, no final offset commit, transactions left open). It runs either on the
 * test classpath, or as a user's worker does: on Kafka's own runtime jars only, loading the
 * packaged plugin folder {@code connector/} (and any other plugin folders) through {@code
 * plugin.path} with plugin isolation.
 */
public final class ForkedWorker implements ConnectWorker {

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
  private static final int LOG_TAIL_LINES = 40;

  private final ChildProcess process;
  private final URI url;
  private final JMXServiceURL jmxUrl;
  private final Path log;
  private JMXConnector jmx;

  private ForkedWorker(ChildProcess process, URI url, JMXServiceURL jmxUrl, Path log) {
    this.process = process;
    this.url = url;
    this.jmxUrl = jmxUrl;
    this.log = log;
  }

  /**
   * Starts the child JVM; {@code dir} receives worker.properties and worker.log. With an empty
   * {@code pluginPath} it runs on the test classpath; otherwise as a user's worker does, on Kafka's
   * runtime classpath ({@code kafka-runtime/pom.xml}) with {@code plugin.path} set to those
   * folders, so that a jar missing from a plugin fails as it would for a user. {@code logLevel} is
   * the root log level (e.g. INFO, everything Connect logs in production); null logs at WARN.
   */
  public static ForkedWorker start(
      Map<String, String> props, Path dir, String logLevel, List<Path> pluginPath) {
    int port = Ports.free();
    int jmxPort = Ports.free();
    Properties properties = new Properties();
    // docs/performance.md's recipe for small heaps: each task's producer may hold buffer.memory,
    // and a worker that takes over a killed one's tasks runs five of them in 256 MiB.
    properties.put("producer.buffer.memory", Integer.toString(8 << 20));
    properties.putAll(props);
    properties.put("listeners", "http://localhost:" + port);
    String classpath = System.getProperty("java.class.path");
    boolean packaged = !pluginPath.isEmpty();
    if (packaged) {
      classpath = ExternalKafka.kafkaRuntimeClasspath(ExternalKafka.repoRoot());
      properties.put(
          "plugin.path", pluginPath.stream().map(Path::toString).collect(Collectors.joining(",")));
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
      // The connector's MBeans (metrics), read by the test through mbeans(); local only.
      command.addAll(
          List.of(
              "-Dcom.sun.management.jmxremote.port=" + jmxPort,
              "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
              "-Dcom.sun.management.jmxremote.host=127.0.0.1",
              "-Djava.rmi.server.hostname=127.0.0.1",
              "-Dcom.sun.management.jmxremote.authenticate=false",
              "-Dcom.sun.management.jmxremote.ssl=false"));
      if (logLevel != null || packaged) {
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
      return new ForkedWorker(
          process,
          URI.create("http://localhost:" + port + "/"),
          new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"),
          log);
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

  /** The child JVM's MBeans, over a JMX connection opened on first use. */
  @Override
  public synchronized MBeanServerConnection mbeans() {
    try {
      if (jmx == null) {
        jmx = JMXConnectorFactory.connect(jmxUrl);
      }
      return jmx.getMBeanServerConnection();
    } catch (IOException e) {
      throw new UncheckedIOException("No JMX connection to the worker at " + jmxUrl, e);
    }
  }

  /** SIGTERM: Connect's own shutdown hook stops the worker gracefully, as in production. */
  @Override
  public void stop() {
    closeJmx();
    process.stop(STOP_TIMEOUT);
  }

  /** SIGKILL. */
  @Override
  public void kill() {
    closeJmx();
    process.kill();
  }

  private synchronized void closeJmx() {
    if (jmx != null) {
      try {
        jmx.close();
      } catch (IOException ignored) {
        // The worker is going away anyway.
      }
      jmx = null;
    }
  }
}
