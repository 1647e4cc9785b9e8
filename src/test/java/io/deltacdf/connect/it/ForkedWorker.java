package io.deltacdf.connect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.cli.ConnectDistributed;

/**
 * A worker in a child JVM on the test classpath, so that it can be killed with SIGKILL: the only
 * way to crash a worker for real (no task stop, no final offset commit, transactions left open).
 */
final class ForkedWorker implements ConnectWorker {

  private static final long STOP_TIMEOUT_SECONDS = 60;
  private static final int LOG_TAIL_LINES = 40;

  private final Process process;
  private final URI url;
  private final Path log;
  // Kills the child if the test JVM exits without closing the cluster.
  private final Thread reaper;

  private ForkedWorker(Process process, URI url, Path log) {
    this.process = process;
    this.url = url;
    this.log = log;
    this.reaper = new Thread(process::destroyForcibly, "forked-worker-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  /** Starts the child JVM; {@code dir} receives worker.properties and worker.log. */
  static ForkedWorker start(Map<String, String> props, Path dir) {
    int port = Ports.free();
    Properties properties = new Properties();
    properties.putAll(props);
    properties.put("listeners", "http://localhost:" + port);
    Path config = dir.resolve("worker.properties");
    Path log = dir.resolve("worker.log");
    try (Writer writer = Files.newBufferedWriter(config)) {
      properties.store(writer, null);
      Process process = new ProcessBuilder(List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
              "-cp", System.getProperty("java.class.path"),
              ConnectDistributed.class.getName(), config.toString()))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      return new ForkedWorker(process, URI.create("http://localhost:" + port + "/"), log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    return "worker JVM exited with " + process.exitValue() + "; last lines of " + log + ":\n"
        + logTail();
  }

  /** SIGTERM: Connect's own shutdown hook stops the worker gracefully, as in production. */
  @Override
  public void stop() {
    process.destroy();
    awaitExit();
  }

  /** SIGKILL. */
  @Override
  public void kill() {
    process.destroyForcibly();
    awaitExit();
  }

  private void awaitExit() {
    try {
      if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    Runtime.getRuntime().removeShutdownHook(reaper);
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES),
          lines.size()));
    } catch (IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }
}
