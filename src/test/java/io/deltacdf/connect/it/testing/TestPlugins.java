package io.deltacdf.connect.it.testing;

import io.deltacdf.connect.testing.ChildProcess;
import io.deltacdf.connect.testing.Folders;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * Third-party plugins that integration tests deploy beside ours, each in a folder of its own on the
 * packaged worker's {@code plugin.path} ({@link KafkaCluster.Builder#pluginFolder}), as users
 * install them.
 */
public final class TestPlugins {

  private static final Duration RESOLVE_TIMEOUT = Duration.ofMinutes(10);
  private static final String APICURIO_CONVERTER =
      "io.apicurio.registry.utils.converter.AvroConverter";

  private TestPlugins() {}

  /**
   * A {@code plugin.path} folder holding {@code apicurio-converter/}: the jars of Apicurio's
   * AvroConverter, resolved by Maven from {@code test-plugins/apicurio-converter/pom.xml} into
   * {@code target/test-plugins/} once (again when that pom is newer).
   */
  public static synchronized Path apicurioConverter() {
    Path repo = ExternalKafka.repoRoot();
    Path pom = repo.resolve("test-plugins/apicurio-converter/pom.xml");
    Path folder = repo.resolve("target/test-plugins");
    Path plugin = folder.resolve("apicurio-converter");
    try {
      if (!Files.isDirectory(plugin)
          || Files.getLastModifiedTime(plugin).compareTo(Files.getLastModifiedTime(pom)) < 0) {
        Files.createDirectories(folder);
        Path partial = Files.createTempDirectory(folder, "apicurio-converter-");
        ChildProcess.runToEnd(
            "Maven resolving " + pom,
            List.of(
                ExternalKafka.mavenCommand(),
                "-q",
                "-B",
                "-f",
                pom.toString(),
                "dependency:copy-dependencies",
                "-DoutputDirectory=" + partial),
            folder.resolve("apicurio-converter.log"),
            RESOLVE_TIMEOUT);
        writeConverterManifest(partial.resolve("plugin-manifest.jar"), APICURIO_CONVERTER);
        Folders.deleteRecursively(plugin);
        Files.move(partial, plugin, StandardCopyOption.ATOMIC_MOVE);
      }
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The manifest Kafka's {@code connect-plugin-path sync-manifests} adds to a plugin without one:
   * workers with {@code plugin.discovery=service_load} find only the plugins it lists.
   */
  private static void writeConverterManifest(Path jar, String converterClass) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream entries = new JarOutputStream(out)) {
      entries.putNextEntry(
          new JarEntry("META-INF/services/org.apache.kafka.connect.storage.Converter"));
      entries.write((converterClass + "\n").getBytes(StandardCharsets.UTF_8));
      entries.closeEntry();
    }
  }
}
