package io.deltacdf.connect.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the Markdown documentation resolves: README.md, config-examples/README.md
 * and docs/*.md link to files that exist, and a link with a {@code #anchor} names a heading of its
 * target file, slugged as GitHub slugs headings. Links to the web ({@code http:}, {@code https:},
 * {@code mailto:}) and links inside fenced code blocks or inline code are not checked.
 */
class DocLinksTest {

  /** An inline link or image: {@code [text](target)} or {@code [text](target "title")}. */
  private static final Pattern INLINE_LINK =
      Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

  /** A reference definition: {@code [label]: target}. */
  private static final Pattern REFERENCE_DEFINITION =
      Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?.*$");

  private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}(#{1,6})(?:\\s+(.*?))?\\s*$");

  private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");

  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");

  @Test
  void everyRelativeLinkResolves() throws IOException {
    List<Path> files = documentationFiles();
    assertThat(files).contains(Path.of("README.md"), Path.of("config-examples/README.md"));
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path file : files) {
      for (Link link : links(file)) {
        checked++;
        String problem = problem(file, link.target());
        if (problem != null) {
          broken.add(file + ":" + link.line() + ": " + link.target() + ": " + problem);
        }
      }
    }
    assertThat(checked).as("relative links found").isGreaterThan(20);
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void slugsFollowGitHub() {
    assertThat(slug("Order and exactly-once")).isEqualTo("order-and-exactly-once");
    assertThat(slug("JSON output (`output.format=json`)"))
        .isEqualTo("json-output-outputformatjson");
    assertThat(slug("Issue 15, items 1–3: measured, and bounded"))
        .isEqualTo("issue-15-items-13-measured-and-bounded");
    assertThat(slug("Which rows a version yields (Spark's rules)"))
        .isEqualTo("which-rows-a-version-yields-sparks-rules");
    assertThat(slug("The same with Docker: one command"))
        .isEqualTo("the-same-with-docker-one-command");
    assertThat(slug("snake_case and Größe 日本語")).isEqualTo("snake_case-and-größe-日本語");
    assertThat(slug("[Linked](other.md) **bold** heading")).isEqualTo("linked-bold-heading");
  }

  @Test
  void duplicateHeadingsGetNumberedAnchors() {
    List<String> lines = List.of("# Notes", "## Notes", "```", "# Notes", "```", "### Notes");
    assertThat(anchors(lines)).containsExactly("notes", "notes-1", "notes-2");
  }

  @Test
  void linksInCodeAreIgnored() {
    List<String> lines =
        List.of(
            "See [a](a.md#x) and `[b](b.md)`.",
            "```markdown",
            "[c](c.md)",
            "```",
            "[d]: d.md",
            "[e](https://example.org/e.md) [f](#local)");
    assertThat(links(lines).stream().map(Link::target)).containsExactly("a.md#x", "d.md", "#local");
  }

  /** README.md, config-examples/README.md and every docs/*.md, in a fixed order. */
  private static List<Path> documentationFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(Path.of("README.md"));
    files.add(Path.of("config-examples/README.md"));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      docs.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
    }
    return files;
  }

  /** Why {@code target}, linked from {@code from}, does not resolve; null when it does. */
  private static String problem(Path from, String target) {
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path file =
        path.isEmpty()
            ? from
            : from.toAbsolutePath()
                .getParent()
                .resolve(URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8))
                .normalize();
    if (!Files.exists(file)) {
      return "no such file " + file;
    }
    if (anchor == null) {
      return null;
    }
    if (!file.getFileName().toString().endsWith(".md") || Files.isDirectory(file)) {
      return "an anchor into a file that is not Markdown";
    }
    Set<String> anchors = anchors(readLines(file));
    return anchors.contains(anchor) ? null : "no heading with anchor '" + anchor + "' in " + file;
  }

  record Link(int line, String target) {}

  private static List<Link> links(Path file) {
    return links(readLines(file));
  }

  /** The relative link targets of a Markdown file, outside fenced code and code spans. */
  static List<Link> links(List<String> lines) {
    List<Link> links = new ArrayList<>();
    for (int i : proseLines(lines)) {
      String line = lines.get(i);
      String text = CODE_SPAN.matcher(line).replaceAll("");
      List<String> targets = new ArrayList<>();
      Matcher definition = REFERENCE_DEFINITION.matcher(text);
      if (definition.matches()) {
        targets.add(definition.group(1));
      }
      Matcher inline = INLINE_LINK.matcher(text);
      while (inline.find()) {
        targets.add(inline.group(1));
      }
      for (String target : targets) {
        String lower = target.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://")
            && !lower.startsWith("https://")
            && !lower.startsWith("mailto:")) {
          links.add(new Link(i + 1, target));
        }
      }
    }
    return links;
  }

  /** The indices of the lines outside fenced code blocks, where links and headings count. */
  private static List<Integer> proseLines(List<String> lines) {
    List<Integer> prose = new ArrayList<>();
    String fence = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher fenceMatcher = FENCE.matcher(line);
      if (fence == null && fenceMatcher.find()) {
        fence = fenceMatcher.group(1);
        continue;
      }
      if (fence != null) {
        if (fenceMatcher.find()
            && fenceMatcher.group(1).charAt(0) == fence.charAt(0)
            && fenceMatcher.group(1).length() >= fence.length()
            && line.strip().length() == fenceMatcher.group(1).length()) {
          fence = null;
        }
        continue;
      }
      prose.add(i);
    }
    return prose;
  }

  /** The anchors GitHub gives the headings of a Markdown file, in order. */
  static Set<String> anchors(List<String> lines) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i : proseLines(lines)) {
      String line = lines.get(i);
      Matcher heading = ATX_HEADING.matcher(line);
      if (!heading.matches()) {
        continue;
      }
      String text = heading.group(2) == null ? "" : heading.group(2).replaceAll("\\s+#+$", "");
      String slug = slug(text);
      int count = seen.merge(slug, 1, Integer::sum) - 1;
      anchors.add(count == 0 ? slug : slug + "-" + count);
    }
    return anchors;
  }

  /**
   * GitHub's anchor for a heading: its text as rendered (link targets and code-span backticks
   * gone), lower-cased, every character but letters, digits, marks, '_', '-' and spaces dropped,
   * and each space turned into '-'.
   */
  static String slug(String heading) {
    String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").strip();
    StringBuilder slug = new StringBuilder();
    text.toLowerCase(Locale.ROOT)
        .codePoints()
        .forEach(
            c -> {
              if (c == ' ') {
                slug.append('-');
              } else if (c == '-' || keeps(c)) {
                slug.appendCodePoint(c);
              }
            });
    return slug.toString();
  }

  private static boolean keeps(int c) {
    switch (Character.getType(c)) {
      case Character.UPPERCASE_LETTER,
      Character.LOWERCASE_LETTER,
      Character.TITLECASE_LETTER,
      Character.MODIFIER_LETTER,
      Character.OTHER_LETTER,
      Character.NON_SPACING_MARK,
      Character.ENCLOSING_MARK,
      Character.COMBINING_SPACING_MARK,
      Character.DECIMAL_DIGIT_NUMBER,
      Character.LETTER_NUMBER,
      Character.OTHER_NUMBER,
      Character.CONNECTOR_PUNCTUATION:
        return true;
      default:
        return false;
    }
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
