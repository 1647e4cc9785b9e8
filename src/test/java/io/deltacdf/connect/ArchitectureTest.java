package io.deltacdf.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Data flows one way and Delta Kernel stays inside one package: {@code change} and {@code offset}
 * are plain values, and only {@code delta} imports Kernel.
 */
class ArchitectureTest {

  private static final Path SOURCES = Path.of("src/main/java/io/deltacdf/connect");

  @Test
  void onlyTheDeltaPackageImportsKernel() throws IOException {
    assertThat(importsOutside("delta", "import io.delta.")).isEmpty();
  }

  /**
   * Kernel's internal API may change in any release: only the adapter may name it, by import or
   * by a fully qualified name.
   */
  @Test
  void onlyTheKernelAdapterUsesKernelInternals() throws IOException {
    Path adapter = SOURCES.resolve("delta/kernel");
    try (Stream<Path> files = Files.walk(SOURCES)) {
      List<String> uses =
          files
              .filter(f -> f.toString().endsWith(".java"))
              .filter(f -> !f.getParent().equals(adapter))
              .flatMap(
                  f ->
                      lines(f)
                          .filter(l -> l.contains("io.delta.kernel.internal"))
                          .map(l -> f + ": " + l.strip()))
              .toList();
      assertThat(uses).isEmpty();
    }
  }

  @Test
  void valuePackagesImportNoRuntime() throws IOException {
    for (String pkg : List.of("change", "offset")) {
      assertThat(importsIn(pkg, "import io.delta.")).as(pkg).isEmpty();
      assertThat(importsIn(pkg, "import org.apache.kafka.connect.runtime")).as(pkg).isEmpty();
      assertThat(importsIn(pkg, "import io.deltacdf.connect.delta")).as(pkg).isEmpty();
    }
  }

  private static List<String> importsOutside(String pkg, String prefix) throws IOException {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(f -> !f.startsWith(SOURCES.resolve(pkg)))
          .flatMap(f -> lines(f).filter(l -> l.startsWith(prefix)).map(l -> f + ": " + l))
          .toList();
    }
  }

  private static List<String> importsIn(String pkg, String prefix) throws IOException {
    Path dir = SOURCES.resolve(pkg);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .flatMap(f -> lines(f).filter(l -> l.startsWith(prefix)).map(l -> f + ": " + l))
          .toList();
    }
  }

  private static Stream<String> lines(Path file) {
    try {
      return Files.readAllLines(file).stream();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
