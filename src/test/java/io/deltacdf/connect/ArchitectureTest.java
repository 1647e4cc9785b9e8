package io.deltacdf.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Data flows one way and Delta Kernel stays inside one package: {@code change} and {@code offset}
 * are plain values, only {@code delta} imports Kernel (its internals only {@code delta/kernel}),
 * {@code delta/derived} is a diff on plain values, and each package imports only the packages
 * below it.
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

  /**
   * The diff of derived changes (fingerprints, sorting, spill files) works on plain values: it
   * imports neither Kernel nor the rest of {@code delta}, which feeds it rows and reads its
   * decisions; only {@code delta} itself may use it.
   */
  @Test
  void derivedDiffStandsOnItsOwn() throws IOException {
    assertThat(importsIn("delta/derived", "import io.delta.")).isEmpty();
    assertThat(
            importsIn("delta/derived", "import io.deltacdf.connect.").stream()
                .filter(l -> !l.contains("import io.deltacdf.connect.change."))
                .toList())
        .isEmpty();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      List<String> users =
          files
              .filter(f -> f.toString().endsWith(".java"))
              .filter(f -> !f.startsWith(SOURCES.resolve("delta")))
              .flatMap(
                  f ->
                      lines(f)
                          .filter(l -> l.contains("io.deltacdf.connect.delta.derived"))
                          .map(l -> f + ": " + l.strip()))
              .toList();
      assertThat(users).isEmpty();
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

  private static final Pattern OUR_IMPORT =
      Pattern.compile("^import (?:static )?io\\.deltacdf\\.connect\\.([\\w.]+);");

  /**
   * The packages each package may import. {@code change} is the vocabulary every stage shares:
   * {@code delta} reads tables into it, {@code convert} turns it into records whose offsets
   * {@code offset} encodes; {@code config} hands out the typed settings of those stages; {@code
   * stream} (orchestration) wires them; the root package holds only the connector's entry points
   * and is imported by none.
   */
  private static final Map<String, Set<String>> ALLOWED_IMPORTS =
      Map.of(
          "change", Set.of(),
          "offset", Set.of("change"),
          "convert", Set.of("change", "offset"),
          "delta", Set.of("change"),
          "config", Set.of("change", "convert"),
          "stream", Set.of("change", "config", "convert", "delta", "offset"));

  @Test
  void packagesImportOnlyThePackagesBelowThem() throws IOException {
    List<String> wrongWay = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Path relative = SOURCES.relativize(file);
        if (relative.getNameCount() == 1) {
          continue; // the entry points may import every package
        }
        String pkg = relative.getName(0).toString();
        Set<String> allowed = ALLOWED_IMPORTS.get(pkg);
        assertThat(allowed).as("allowed imports of new package " + pkg).isNotNull();
        lines(file)
            .map(ArchitectureTest::ourPackage)
            .filter(imported -> imported != null && !imported.equals(pkg))
            .filter(imported -> !allowed.contains(imported))
            .forEach(imported -> wrongWay.add(relative + " imports " + imported));
      }
    }
    assertThat(wrongWay).isEmpty();
  }

  /**
   * The package of ours an import line names ("" for the root package), or null for other lines.
   */
  private static String ourPackage(String line) {
    Matcher m = OUR_IMPORT.matcher(line);
    if (!m.find()) {
      return null;
    }
    String rest = m.group(1);
    // A lower-case segment before the class name is a package; an upper-case one is the class.
    return Character.isLowerCase(rest.charAt(0)) ? rest.split("\\.")[0] : "";
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
