package io.deltacdf.connect.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the benchmark starts its JVMs. Every measured JVM runs with the normal JIT (C2), not the test
 * suite's C1-only -XX:TieredStopAtLevel=1: we measure speed.
 */
final class Jvms {

  private final String testClasspath;
  private final String sparkClasspath;

  /**
   * @param sparkRuntimeClasspath the jars of benchmark/spark-runtime/pom.xml (Spark, Delta and
   *     Spark's Kafka sink); the test classes are added for the benchmark's Spark main classes
   */
  Jvms(String sparkRuntimeClasspath) {
    this.testClasspath = System.getProperty("java.class.path");
    List<String> testClasses = new ArrayList<>();
    for (String entry : testClasspath.split(File.pathSeparator)) {
      if (entry.endsWith("test-classes") || entry.endsWith("test-classes/")) {
        testClasses.add(entry);
      }
    }
    testClasses.add(sparkRuntimeClasspath);
    this.sparkClasspath = String.join(File.pathSeparator, testClasses);
  }

  /** A main class in a Spark JVM (Spark's own runtime, WARN logging). */
  Map<String, String> runSpark(
      Path log, String heap, long timeoutMinutes, String mainClass, String... args) {
    List<String> options =
        new ArrayList<>(
            List.of(
                "-Xmx" + heap,
                "-Dlog4j2.configurationFile=" + sparkLogConfig(log.getParent()).toUri()));
    options.addAll(ChildJvm.SPARK_OPENS);
    return ChildJvm.run(sparkClasspath, options, log, timeoutMinutes, mainClass, args);
  }

  private static Path sparkLogConfig(Path dir) {
    Path file = dir.resolve("spark-log4j2.properties");
    try {
      Files.createDirectories(dir);
      Files.writeString(
          file,
          """
          rootLogger.level = warn
          rootLogger.appenderRef.stdout.ref = console
          appender.console.type = Console
          appender.console.name = console
          appender.console.layout.type = PatternLayout
          appender.console.layout.pattern = %d %p %c{1}: %m%n
          """);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** A main class on the project's test classpath (the connector's own code and Kernel). */
  Map<String, String> runTest(Path log, String heap, String mainClass, String... args) {
    return ChildJvm.run(testClasspath, List.of("-Xmx" + heap), log, 30, mainClass, args);
  }
}
