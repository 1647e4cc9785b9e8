package io.deltacdf.connect.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child process of the tests and the benchmark (registry, emulator, broker, worker, a measured
 * JVM, a small-heap reader of a unit test) with its standard output and error appended to a log
 * file: the one launcher they share. A shutdown hook kills it if the test JVM exits while it runs,
 * so that no child outlives an aborted build and keeps its port; the hook goes when the process
 * ends, however it ends.
 */
public final class ChildProcess {

  // SIGKILL cannot be ignored: this only bounds the wait for a process stuck in the kernel.
  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

  private final String name;
  private final Process process;
  private final Path log;
  private final Thread reaper;

  private ChildProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.reaper = new Thread(process::destroyForcibly, name + " reaper");
    Runtime.getRuntime().addShutdownHook(reaper);
    process.onExit().thenRun(this::unhook);
  }

  /**
   * Starts {@code builder}'s command with its output and errors appended to {@code log}; {@code
   * name} (e.g. "S3Mock") names it in messages.
   */
  public static ChildProcess start(String name, ProcessBuilder builder, Path log)
      throws IOException {
    Process process =
        builder
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new ChildProcess(name, process, log);
  }

  public static ChildProcess start(String name, List<String> command, Path log) throws IOException {
    return start(name, new ProcessBuilder(command), log);
  }

  /**
   * The command that runs {@code mainClass} with {@code args} in a JVM of this JVM's Java and class
   * path, started with {@code jvmOptions} (e.g. a small -Xmx).
   */
  public static List<String> javaCommand(
      List<String> jvmOptions, Class<?> mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Runs {@code command} to its end and returns the lines of its output; fails with the log's tail
   * when it exits non-zero, or overruns {@code timeout} (it is then killed).
   */
  public static List<String> runToEnd(String name, List<String> command, Path log, Duration timeout)
      throws IOException {
    ChildProcess child = start(name, command, log);
    if (!child.awaitExit(timeout)) {
      child.kill();
      throw new IllegalStateException(
          name + " overran " + timeout + "; last lines of " + log + ":\n" + child.logTail(40));
    }
    if (child.exitValue() != 0) {
      throw new IllegalStateException(child.exitReport(40));
    }
    return Files.readAllLines(log, StandardCharsets.UTF_8);
  }

  public long pid() {
    return process.pid();
  }

  /** Waits at most {@code timeout} for the process to exit; returns whether it has. */
  public boolean awaitExit(Duration timeout) {
    return waitFor(timeout);
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public int exitValue() {
    return process.exitValue();
  }

  /**
   * SIGTERM, then SIGKILL if the process still runs after {@code grace}; returns whether it needed
   * SIGKILL. A process that has already exited is just reaped, so this can be repeated.
   */
  public boolean stop(Duration grace) {
    process.destroy();
    if (waitFor(grace)) {
      return false;
    }
    kill();
    return true;
  }

  /** SIGKILL now, without a graceful shutdown: a crash. */
  public void kill() {
    process.destroyForcibly();
    if (!waitFor(KILL_TIMEOUT)) {
      throw new IllegalStateException(name + " (pid " + process.pid() + ") did not exit");
    }
  }

  /**
   * Waits until {@code GET url} answers 200: fails with {@link #exitReport} when the process exits
   * first, and with the last answer and the log's last {@code logLines} after {@code timeout}.
   */
  public void awaitHttpOk(URI url, Duration timeout, int logLines) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!isAlive()) {
        throw new IllegalStateException(exitReport(logLines));
      }
      try {
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).GET().build(),
                BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
        last = "HTTP " + response.statusCode() + " " + response.body();
      } catch (IOException e) {
        last = e.toString(); // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      TestSupport.sleep(100);
    }
    throw new IllegalStateException(
        name
            + " not ready on "
            + url
            + " after "
            + timeout
            + ": "
            + last
            + "\n"
            + logTail(logLines));
  }

  /** {@code <name> exited with <code>; last lines of <log>:} and the log's last {@code lines}. */
  public String exitReport(int lines) {
    return name
        + " exited with "
        + process.exitValue()
        + "; last lines of "
        + log
        + ":\n"
        + logTail(lines);
  }

  /** The last {@code lines} lines of the log. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }

  /** An interrupt kills the process and fails the caller, as in {@link TestSupport#sleep}. */
  private boolean waitFor(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException(e);
    }
  }

  private void unhook() {
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs (harmlessly) anyway
    }
  }
}
