package io.deltacdf.connect.it.external.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Connect worker of {@link ExternalKafka} runs on: the Kafka version of its jars (from Maven
 * Central through {@code kafka-runtime/pom.xml}) and the JDK whose {@code bin/java} starts it. The
 * broker is always Kafka {@link #BROKER_KAFKA_VERSION} on the test JVM's JDK.
 */
public record WorkerRuntime(String kafkaVersion, Path javaHome) {

  /** The broker's version, and the default of kafka-runtime/pom.xml. */
  public static final String BROKER_KAFKA_VERSION = "4.4.0";

  private static final Pattern JAVA_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"([0-9]+)");

  /** A worker of the broker's version on the test JVM's JDK: what demo.sh runs. */
  public static WorkerRuntime defaults() {
    return onTestJdk(BROKER_KAFKA_VERSION);
  }

  /** A worker of {@code kafkaVersion} on the test JVM's JDK. */
  public static WorkerRuntime onTestJdk(String kafkaVersion) {
    return new WorkerRuntime(kafkaVersion, Path.of(System.getProperty("java.home")));
  }

  public Path javaExecutable() {
    return javaHome.resolve("bin").resolve("java");
  }

  /** The JDK's feature version (17, 25, ...), from its {@code release} file. */
  public int javaFeatureVersion() {
    try {
      Matcher matcher = JAVA_VERSION.matcher(Files.readString(javaHome.resolve("release")));
      if (!matcher.find()) {
        throw new IllegalStateException("No JAVA_VERSION in " + javaHome.resolve("release"));
      }
      return Integer.parseInt(matcher.group(1));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The worker runs from the broker's own classpath (same Kafka version). */
  public boolean sharesBrokerJars() {
    return kafkaVersion.equals(BROKER_KAFKA_VERSION);
  }

  /**
   * The properties that make kafka-runtime/pom.xml name this worker's jars only; Kafka 3.x logs
   * through log4j 1 (reload4j), 4.x through log4j2.
   */
  public List<String> mavenProperties() {
    List<String> properties = new ArrayList<>();
    properties.add("-Dkafka.version=" + kafkaVersion);
    properties.add("-Dworker.only");
    if (kafkaVersion.startsWith("3.")) {
      properties.add("-Dkafka.logging=reload4j");
    }
    return properties;
  }

  /** E.g. "Connect 3.9.2 on Java 17"; a missing JDK is named by its folder. */
  @Override
  public String toString() {
    String java =
        Files.isRegularFile(javaHome.resolve("release"))
            ? "Java " + javaFeatureVersion()
            : javaHome.toString();
    return "Connect " + kafkaVersion + " on " + java;
  }
}
