package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.external.testing.WorkerRuntime;
import io.deltacdf.connect.it.testing.ExternalKafka;
import io.deltacdf.connect.testing.Ports;
import java.io.File;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TopicDeliveries} finds a task's thread blocked on a missing topic by the producer's method
 * it waits in. That method is Kafka's, not an API: this checks, with each Kafka client version the
 * connector claims, that a producer waiting for a topic's metadata is seen as such, and that the
 * interrupt ends the wait. Each version's own jars (from Maven Central, as its workers run them)
 * are loaded in a class loader of their own.
 *
 * <p>A normal build checks the oldest claimed version and the newest; {@code -Dcompat.full=true}
 * every version line of docs/compatibility.md.
 */
class ProducerMetadataWaitIT {

  private static final List<String> VERSION_LINES =
      List.of("3.9.2", "4.0.2", "4.1.2", "4.2.1", "4.3.1", "4.4.0");
  private static final Duration WAIT = Duration.ofSeconds(30);

  static Stream<String> clientVersions() {
    return Boolean.getBoolean("compat.full")
        ? VERSION_LINES.stream()
        : Stream.of(VERSION_LINES.get(0), VERSION_LINES.get(VERSION_LINES.size() - 1));
  }

  @ParameterizedTest(name = "kafka-clients {0}")
  @MethodSource("clientVersions")
  void aProducerWaitingForATopicsMetadataIsSeenAndLetGo(String version) throws Exception {
    Path repo = ExternalKafka.repoRoot();
    String classpath =
        version.equals(WorkerRuntime.BROKER_KAFKA_VERSION)
            ? ExternalKafka.kafkaRuntimeClasspath(repo)
            : ExternalKafka.workerClasspath(repo, WorkerRuntime.onTestJdk(version));
    URL[] jars =
        Arrays.stream(classpath.split(File.pathSeparator))
            .map(jar -> toUrl(Path.of(jar)))
            .toArray(URL[]::new);
    // The platform loader as parent: this version's classes, not the test classpath's Kafka.
    try (URLClassLoader loader = new URLClassLoader(jars, ClassLoader.getPlatformClassLoader())) {
      Object producer = producer(loader);
      Class<?> recordClass = loader.loadClass("org.apache.kafka.clients.producer.ProducerRecord");
      Object record =
          recordClass
              .getConstructor(String.class, Object.class)
              .newInstance("missing", new byte[1]);
      Thread sender =
          new Thread(
              () -> {
                try {
                  producer.getClass().getMethod("send", recordClass).invoke(producer, record);
                } catch (ReflectiveOperationException e) {
                  // The interrupt ends the send with Kafka's InterruptException.
                }
              },
              "task-thread");
      sender.start();
      try {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!TopicDeliveries.inProducerMetadataWait(sender) && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertThat(TopicDeliveries.inProducerMetadataWait(sender))
            .as("kafka-clients %s waits for the topic's metadata in the method looked for", version)
            .isTrue();
        sender.interrupt();
        sender.join(WAIT.toMillis());
        assertThat(sender.isAlive()).as("the interrupt ends the wait").isFalse();
      } finally {
        producer
            .getClass()
            .getMethod("close", Duration.class)
            .invoke(producer, Duration.ofSeconds(1));
      }
    }
  }

  /** A producer that never reaches a broker, so its first send waits for metadata forever. */
  private static Object producer(ClassLoader loader) throws ReflectiveOperationException {
    Properties settings = new Properties();
    settings.put("bootstrap.servers", "127.0.0.1:" + Ports.free());
    settings.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
    settings.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
    // As Connect configures its producers.
    settings.put("max.block.ms", String.valueOf(Long.MAX_VALUE));
    Class<?> producerClass = loader.loadClass("org.apache.kafka.clients.producer.KafkaProducer");
    Constructor<?> constructor = producerClass.getConstructor(Properties.class);
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(loader);
    try {
      return constructor.newInstance(settings);
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
  }

  private static URL toUrl(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (java.net.MalformedURLException e) {
      throw new IllegalArgumentException(jar.toString(), e);
    }
  }
}
