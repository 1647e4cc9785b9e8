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
 * {@code delta/derived} is a diff on plain values, each package imports only the packages below it,
 * and inside {@code delta} each layer only the layers below it, the rest of the connector only its
 * facade.
 */
class ArchitectureTest {

  private static final Path SOURCES = Path.of("src/main/java/io/deltacdf/connect");

  @Test
  void onlyTheDeltaPackageImportsKernel() throws IOException {
    assertThat(importsOutside("delta", "import io.delta.")).isEmpty();
  }

  /**
   * Kernel's internal API may change in any release: only the adapter may name it, by import or by
   * a fully qualified name.
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
   * The diff of derived changes (fingerprints and the pairing of rows) works on plain values: it
   * imports neither Kernel nor the rest of {@code delta} but the external sort and spill files it
   * stands on ({@code delta/spill}); the rest of {@code delta} feeds it rows and reads its
   * decisions; only {@code delta} itself may use it.
   */
  @Test
  void derivedDiffStandsOnItsOwn() throws IOException {
    assertThat(importsIn("delta/derived", "import io.delta.")).isEmpty();
    assertThat(
            importsIn("delta/derived", "import io.deltacdf.connect.").stream()
                .filter(l -> !l.contains("import io.deltacdf.connect.change."))
                .filter(l -> !l.contains("import io.deltacdf.connect.delta.spill."))
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
   * {@code delta} reads tables into it, {@code convert} turns it into records whose offsets {@code
   * offset} encodes; {@code config} hands out the typed settings of those stages; {@code task} (the
   * task's side: what a task does each poll) wires them; {@code connector} (the control plane:
   * which tables, what each task reads, validation, offset alterations) stands on the task's side
   * and writes the task settings it reads, never the other way round; the root package holds only
   * the connector's entry points and is imported by none.
   */
  private static final Map<String, Set<String>> ALLOWED_IMPORTS =
      Map.of(
          "change", Set.of(),
          "offset", Set.of("change"),
          "convert", Set.of("change", "offset"),
          "delta", Set.of("change"),
          "config", Set.of("change", "convert"),
          "task", Set.of("change", "config", "convert", "delta", "offset"),
          "connector", Set.of("change", "config", "convert", "delta", "offset", "task"));

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

  /** A task runs none of the control plane: its entry point wires the task's side alone. */
  @Test
  void theTaskUsesNoControlPlane() {
    assertThat(lines(SOURCES.resolve("DeltaCdfSourceTask.java")).map(ArchitectureTest::ourPackage))
        .doesNotContain("connector");
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

  /**
   * The layers of {@code delta}, each importing only those below it, in the order the change data
   * feed is computed: a table's context and schema, its log, which files carry a version's changes,
   * the rows out of one file, row tracking's settings, the feed stepping through phases. {@code
   * kernel}, {@code storage}, {@code spill} (an external sort and spill files, for commits and
   * diffs too large to hold), {@code errors} (Kernel's and the store's failures turned into errors
   * a user can act on), {@code variant} (the variant encoding, and variant columns as Kernel's
   * Parquet reader returns them, shredded or not) and {@code catalog} (Unity Catalog's tables and
   * vended credentials) are leaves; {@code derived} (the diff of derived changes) stands on {@code
   * spill}. The facade on top ({@code delta} itself) wires them; below it, only its error may be
   * imported, which every layer throws to the callers.
   */
  private static final Map<String, Set<String>> DELTA_LAYERS =
      Map.ofEntries(
          Map.entry("kernel", Set.of()),
          Map.entry("storage", Set.of()),
          Map.entry("spill", Set.of()),
          Map.entry("derived", Set.of("spill")),
          Map.entry("variant", Set.of()),
          Map.entry("catalog", Set.of()),
          Map.entry("errors", Set.of("kernel", "catalog")),
          Map.entry("table", Set.of("kernel", "errors", "spill", "variant", "catalog")),
          Map.entry("log", Set.of("kernel", "errors", "table", "catalog")),
          Map.entry("plan", Set.of("kernel", "errors", "spill", "table", "log")),
          Map.entry("read", Set.of("kernel", "errors", "table", "plan")),
          Map.entry("rowtracking", Set.of("kernel", "plan")),
          Map.entry(
              "feed",
              Set.of(
                  "kernel",
                  "errors",
                  "derived",
                  "spill",
                  "table",
                  "log",
                  "plan",
                  "read",
                  "rowtracking")));

  private static final String FACADE_ERROR = "DeltaFeedException";

  private static final Pattern DELTA_IMPORT =
      Pattern.compile(
          "^import (?:static )?io\\.deltacdf\\.connect\\.delta\\.(?:(\\p{Lower}\\w*)\\.)?(\\w+)");

  @Test
  void deltaLayersImportOnlyTheLayersBelowThem() throws IOException {
    Path delta = SOURCES.resolve("delta");
    List<String> wrongWay = new ArrayList<>();
    try (Stream<Path> files = Files.walk(delta)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Path relative = delta.relativize(file);
        if (relative.getNameCount() == 1) {
          continue; // the facade may import every layer
        }
        String layer = relative.getName(0).toString();
        Set<String> allowed = DELTA_LAYERS.get(layer);
        assertThat(allowed).as("allowed imports of new layer delta/" + layer).isNotNull();
        lines(file)
            .map(DELTA_IMPORT::matcher)
            .filter(Matcher::find)
            .forEach(
                m -> {
                  String imported = m.group(1);
                  boolean ok =
                      imported == null
                          ? FACADE_ERROR.equals(m.group(2))
                          : imported.equals(layer) || allowed.contains(imported);
                  if (!ok) {
                    wrongWay.add(relative + " imports " + m.group());
                  }
                });
      }
    }
    assertThat(wrongWay).isEmpty();
  }

  /** The rest of the connector sees {@code delta} only through its facade. */
  @Test
  void onlyTheDeltaFacadeIsImportedFromOutside() throws IOException {
    Pattern layerImport =
        Pattern.compile("import (static )?io\\.deltacdf\\.connect\\.delta\\.\\p{Lower}");
    assertThat(
            importsOutside("delta", "import ").stream().filter(l -> layerImport.matcher(l).find()))
        .isEmpty();
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
