package io.deltacdf.connect.it.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Confluent Hub archive that {@code mvn package} builds carries our licence, our notice and the
 * licences of every jar it bundles, and a manifest that says what this release does.
 */
class HubArchiveIT {

  /** groupId:artifactId:version as THIRD-PARTY.txt names each bundled artifact. */
  private static final Pattern COORDINATES =
      Pattern.compile("\\(([\\w.-]+):([\\w.-]+):([\\w.-]+) ");

  private static ZipFile archive;
  private static String base;

  @BeforeAll
  static void open() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("target"))) {
      Path zip =
          files
              .filter(f -> f.getFileName().toString().matches("deltacdf-.*\\.zip"))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no Hub archive: run mvn package"));
      archive = new ZipFile(zip.toFile());
      base = zip.getFileName().toString().replaceFirst("\\.zip$", "") + "/";
    }
  }

  @AfterAll
  static void close() throws IOException {
    archive.close();
  }

  @Test
  void carriesTheApacheLicenceAndTheNotice() {
    assertThat(text("doc/LICENSE")).contains("Apache License", "Version 2.0, January 2004");
    assertThat(text("doc/NOTICE")).contains("kafka-connect-delta-cdf", "THIRD-PARTY.txt");
  }

  @Test
  void listsTheLicenceOfEveryBundledJar() {
    String thirdParty = text("doc/THIRD-PARTY.txt");
    Set<String> listed = listedJarPrefixes(thirdParty);
    List<String> bundled =
        names("lib/").stream()
            .filter(jar -> jar.endsWith(".jar"))
            .filter(jar -> !jar.startsWith("kafka-connect-delta-cdf-"))
            .toList();
    assertThat(bundled).hasSizeGreaterThan(10);
    assertThat(bundled)
        .allSatisfy(
            jar ->
                assertThat(listed.stream().anyMatch(jar::startsWith))
                    .as("%s is listed in THIRD-PARTY.txt", jar)
                    .isTrue());
    assertThat(thirdParty)
        .containsPattern("\\(The Apache Software License, Version 2\\.0|Apache.*2\\.0")
        .contains("org.apache.hadoop:hadoop-aws:", "software.amazon.awssdk:s3:")
        .contains("com.google.cloud.bigdataoss:gcs-connector:");
  }

  @Test
  void shipsTheLicenceFilesTheBundledJarsCarry() {
    List<String> licences = names("doc/licenses/");
    for (String artifact : List.of("hadoop-aws-", "hadoop-client-api-", "s3-", "gcs-connector-")) {
      assertThat(licences)
          .as("licence or notice files of %s", artifact)
          .anyMatch(n -> n.startsWith(artifact) && n.matches(".*/(LICENSE|NOTICE)[^/]*"));
    }
  }

  @Test
  void manifestDescribesThisRelease() throws IOException {
    JsonNode manifest = new ObjectMapper().readTree(text("manifest.json"));
    assertThat(manifest.path("description").asText())
        .contains("s3a://", "abfss://", "gs://")
        .doesNotContain("this release reads tables on local or mounted file systems");
    assertThat(manifest.path("license").findValuesAsText("name")).contains("Apache License 2.0");
    for (String field : List.of("source_url", "docs_url")) {
      assertThat(manifest.path(field).asText()).as(field).startsWith("https://");
    }
    assertThat(manifest.path("support").path("url").asText()).startsWith("https://");
    assertThat(manifest.path("owner").path("url").asText()).startsWith("https://");
    assertThat(manifest.path("version").asText()).doesNotContain("${");
  }

  /** "artifactId-version" of each artifact THIRD-PARTY.txt names: how its jar's name starts. */
  private static Set<String> listedJarPrefixes(String thirdParty) {
    Matcher m = COORDINATES.matcher(thirdParty);
    return m.results().map(r -> r.group(2) + "-" + r.group(3)).collect(Collectors.toSet());
  }

  /** The entries under {@code folder} of the archive's base folder, relative to it. */
  private static List<String> names(String folder) {
    return archive.stream()
        .map(ZipEntry::getName)
        .filter(n -> n.startsWith(base + folder) && !n.endsWith("/"))
        .map(n -> n.substring((base + folder).length()))
        .toList();
  }

  private static String text(String entry) {
    ZipEntry found = archive.getEntry(base + entry);
    assertThat(found).as("%s in the archive", entry).isNotNull();
    try {
      return new String(archive.getInputStream(found).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
