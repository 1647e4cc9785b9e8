package io.deltacdf.connect.bench;

import io.deltacdf.connect.testing.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark step in a JVM of its own (so its speed, heap and RSS are its own): runs a main class
 * to completion through the tests' {@link ChildProcess}, logs to a file, and collects the {@code
 * key=value} result lines it prints on stdout prefixed with {@value #RESULT_PREFIX}.
 */
public final class ChildJvm {

  static final String RESULT_PREFIX = "bench-result ";
  private static final int TAIL_LINES = 40;

  /**
   * The options Spark needs on Java 17, as the Java argument file in the repository root that the
   * test JVMs and demo.sh read too (the benchmark runs from the root).
   */
  static final List<String> SPARK_OPENS =
      List.of("@" + Path.of("spark-java17.args").toAbsolutePath());

  private ChildJvm() {}

  /** Prints one result line for the parent (called in the child). */
  public static void result(String key, Object value) {
    System.out.println(RESULT_PREFIX + key + "=" + value);
  }

  /**
   * Runs {@code mainClass} to completion and returns its results; fails with the log's tail when it
   * exits non-zero or overruns {@code timeoutMinutes}.
   */
  static Map<String, String> run(
      String classpath,
      List<String> jvmOptions,
      Path log,
      long timeoutMinutes,
      String mainClass,
      String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath, mainClass));
    command.addAll(List.of(args));
    try {
      Files.createDirectories(log.getParent());
      Files.deleteIfExists(log); // the results are read from this run's log alone
      ChildProcess process =
          ChildProcess.start(
              mainClass, new ProcessBuilder(command).directory(log.getParent().toFile()), log);
      if (!process.awaitExit(Duration.ofMinutes(timeoutMinutes))) {
        process.kill();
        throw new IllegalStateException(
            mainClass + " overran " + timeoutMinutes + " min\n" + process.logTail(TAIL_LINES));
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            mainClass
                + " "
                + String.join(" ", args)
                + " exited with "
                + process.exitValue()
                + "\n"
                + process.logTail(TAIL_LINES));
      }
      Map<String, String> results = new HashMap<>();
      for (String line : Files.readAllLines(log)) {
        if (line.startsWith(RESULT_PREFIX)) {
          String pair = line.substring(RESULT_PREFIX.length());
          int eq = pair.indexOf('=');
          results.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
      }
      return results;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
