package io.deltacdf.connect.it.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.external.testing.JarClasses;
import io.deltacdf.connect.it.testing.ExternalKafka;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every class the packaged plugin's jars ({@code connector/lib}) reference is defined by those
 * jars, by the Connect runtime a worker has on its classpath (Kafka 4.4.0's own jars, {@code
 * kafka-runtime/pom.xml}), or by the JDK, except in the packages of {@link #OPTIONAL}: code paths
 * the connector never takes. A jar left out of the plugin (commons-lang3 for hadoop-azure, once)
 * fails here, where the in-process tests, which load the connector next to Spark and Hadoop on the
 * test classpath, pass.
 */
class PluginClassReferencesIT {

  /**
   * Packages (internal-name prefixes) that plugin classes reference but nobody provides, grouped by
   * why the connector never reaches them. Keep it short: an entry hides every class under it.
   */
  private static final List<Unreached> OPTIONAL =
      List.of(
          new Unreached(
              "hadoop-client-runtime leaves out what only Hadoop's servers, HA, RPC, shell and FTP"
                  + " file system use",
              "org/apache/hadoop/shaded/",
              "org/apache/commons/net/",
              "javax/ws/rs/",
              "jdiff/",
              "sun/net/spi/nameservice/"),
          new Unreached(
              "optional compression codecs and TLS engines, probed at run time (Netty, gRPC)",
              "com/aayushatharva/brotli4j/",
              "com/jcraft/jzlib/",
              "com/ning/compress/",
              "lzma/sdk/",
              "org/jboss/marshalling/",
              "io/netty/internal/tcnative/",
              "io/netty/pkitesting/",
              "org/conscrypt/",
              "org/eclipse/jetty/alpn/",
              "org/eclipse/jetty/npn/",
              "org/bouncycastle/"),
          new Unreached(
              "logging back ends other than slf4j 1.7, used only when found at run time",
              "org/apache/log4j/",
              "org/apache/log/",
              "org/apache/avalon/",
              "javax/servlet/",
              "org/slf4j/spi/LoggingEventBuilder",
              "org/jboss/logging/"),
          new Unreached(
              "other platforms and frameworks: Android, App Engine, GraalVM native image, OSGi,"
                  + " Bean Validation, BlockHound, JUnit rules",
              "android/",
              "com/google/appengine/",
              "org/graalvm/",
              "com/oracle/svm/",
              "org/osgi/",
              "javax/validation/",
              "reactor/blockhound/",
              "org/junit/"),
          new Unreached(
              "annotations only (the JVM ignores annotation types it cannot load)",
              "com/google/auto/value/",
              "com/google/j2objc/annotations/",
              "org/jetbrains/annotations/"),
          new Unreached(
              "Guava: delta-storage's log writers and azure-storage's client-side encryption;"
                  + " the connector writes no log and uses no WASB",
              "com/google/common/"),
          new Unreached(
              "S3A features the connector never enables: AWS SDK v1 credential providers, client-side"
                  + " encryption (KMS), S3 Access Grants, the CRT client, the SDK bundle's socket"
                  + " factory, copyFromLocal, the analytics stream's Thrift HTTP transport",
              "com/amazonaws/",
              "software/amazon/awssdk/services/kms/",
              "software/amazon/encryption/",
              "software/amazon/awssdk/s3accessgrants/",
              "software/amazon/awssdk/crt/",
              "software/amazon/awssdk/thirdparty/org/apache/http/",
              "org/apache/commons/collections4/",
              "org/apache/hc/"),
          new Unreached(
              "GCS connector parts outside its file system: delegation-token fetcher, OpenTelemetry"
                  + " incubator APIs, protobuf nano",
              "com/google/cloud/hadoop/gcsio/GoogleCloudStorageFileSystem",
              "com/google/cloud/hadoop/repackaged/gcs/io/opentelemetry/",
              "com/google/cloud/hadoop/repackaged/gcs/com/google/protobuf/nano/"));

  /** Packages or classes no code path of the connector reaches, and why. */
  private record Unreached(String reason, String... prefixes) {}

  private static Map<Path, Map<String, Set<String>>> referencesByJar;
  private static Set<String> provided;

  @BeforeAll
  static void readJars() throws IOException {
    Path repo = ExternalKafka.repoRoot();
    List<Path> pluginJars;
    try (Stream<Path> jars = Files.list(repo.resolve("connector/lib"))) {
      pluginJars = jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
    assertThat(pluginJars)
        .as("the packaged plugin (mvn verify packages before integration tests)")
        .anyMatch(p -> p.getFileName().toString().startsWith("kafka-connect-delta-cdf-"));
    referencesByJar = new TreeMap<>();
    provided = new HashSet<>(JarClasses.jdk());
    for (Path jar : pluginJars) {
      referencesByJar.put(jar, JarClasses.references(jar));
      provided.addAll(referencesByJar.get(jar).keySet());
    }
    for (String entry : ExternalKafka.kafkaRuntimeClasspath(repo).split(File.pathSeparator)) {
      if (entry.endsWith(".jar")) {
        provided.addAll(JarClasses.defined(Path.of(entry)));
      }
    }
  }

  @Test
  void everyReferencedClassIsProvidedOrOnAnOptionalPath() {
    Map<String, Set<String>> missingByPackage = new TreeMap<>();
    referencesByJar.forEach(
        (jar, references) ->
            references.forEach(
                (referrer, referenced) -> {
                  for (String name : referenced) {
                    if (!provided.contains(name) && optionalPrefix(name) == null) {
                      missingByPackage
                          .computeIfAbsent(packageOf(name), p -> new TreeSet<>())
                          .add(jar.getFileName() + ": " + referrer + " -> " + name);
                    }
                  }
                }));
    assertThat(missingByPackage)
        .as(
            "classes the plugin references that neither connector/lib, nor Kafka's runtime, nor"
                + " the JDK provides (ship the jar, or add the package to OPTIONAL with why no"
                + " code path reaches it):\n%s",
            describe(missingByPackage))
        .isEmpty();
  }

  @Test
  void everyOptionalPackageIsReferencedAndMissing() {
    Set<String> used = new TreeSet<>();
    referencesByJar.values().stream()
        .flatMap(references -> references.values().stream())
        .flatMap(Set::stream)
        .filter(name -> !provided.contains(name))
        .map(PluginClassReferencesIT::optionalPrefix)
        .filter(prefix -> prefix != null)
        .forEach(used::add);
    assertThat(used)
        .as("OPTIONAL entries that still match a missing class")
        .containsExactlyInAnyOrderElementsOf(
            OPTIONAL.stream().flatMap(entry -> Stream.of(entry.prefixes())).toList());
  }

  private static String optionalPrefix(String name) {
    return OPTIONAL.stream()
        .flatMap(entry -> Stream.of(entry.prefixes()))
        .filter(name::startsWith)
        .findFirst()
        .orElse(null);
  }

  private static String packageOf(String name) {
    int slash = name.lastIndexOf('/');
    return slash < 0 ? "" : name.substring(0, slash + 1);
  }

  private static String describe(Map<String, Set<String>> missingByPackage) {
    return missingByPackage.entrySet().stream()
        .map(
            e ->
                e.getKey()
                    + " ("
                    + e.getValue().size()
                    + " references), e.g. "
                    + e.getValue().iterator().next())
        .collect(Collectors.joining("\n"));
  }
}
