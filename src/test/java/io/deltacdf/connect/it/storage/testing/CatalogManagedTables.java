package io.deltacdf.connect.it.storage.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Turns a table Spark wrote by path into a catalog-managed one, as the Delta protocol describes
 * such tables: its protocol names the {@code catalogManaged} reader-writer feature (which needs
 * in-commit timestamps), and its newest commits are not published to {@code _delta_log} but lie as
 * staged commit files {@code _delta_log/_staged_commits/<version>.<uuid>.json}, which only the
 * catalog's ratification makes commits. Spark cannot write such a table through our test catalog
 * (that needs Unity Catalog's Spark connector, which Maven Central does not serve), so the commits
 * are Spark's own, moved: the table's data files and actions are what Spark's table_changes read.
 */
public final class CatalogManagedTables {

  private static final ObjectMapper JSON = new ObjectMapper();

  private CatalogManagedTables() {}

  /** A commit moved out of {@code _delta_log} into a staged file, and its in-commit timestamp. */
  public record StagedCommit(long version, Path file, long inCommitTimestamp) {}

  /**
   * Makes the table at {@code tablePath} catalog-managed from its first version, with the commits
   * from {@code firstStaged} on staged rather than published.
   *
   * @return the staged commits, oldest first
   */
  public static List<StagedCommit> convert(String tablePath, long firstStaged) {
    Path log = Path.of(tablePath, "_delta_log");
    try {
      upgradeProtocol(log.resolve(commitName(0)));
      // Checksums describe published versions only; Kernel would trust a stale one.
      try (Stream<Path> files = Files.list(log)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".crc")).toList()) {
          Files.delete(file);
        }
      }
      Path staged = Files.createDirectories(log.resolve("_staged_commits"));
      List<StagedCommit> commits = new ArrayList<>();
      for (long version = firstStaged; Files.exists(log.resolve(commitName(version))); version++) {
        Path published = log.resolve(commitName(version));
        long timestamp = inCommitTimestamp(published);
        Path target = staged.resolve(String.format("%020d.%s.json", version, UUID.randomUUID()));
        Files.move(published, target);
        commits.add(new StagedCommit(version, target, timestamp));
      }
      return commits;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String commitName(long version) {
    return String.format("%020d.json", version);
  }

  /** Adds catalogManaged (and vacuumProtocolCheck, as catalogs set it) to the first protocol. */
  private static void upgradeProtocol(Path commit) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(commit)) {
      JsonNode action = JSON.readTree(line);
      if (action.has("protocol")) {
        ObjectNode protocol = (ObjectNode) action.get("protocol");
        protocol.put("minReaderVersion", 3);
        protocol.put("minWriterVersion", 7);
        features(protocol, "readerFeatures", "catalogManaged", "vacuumProtocolCheck");
        features(
            protocol,
            "writerFeatures",
            "catalogManaged",
            "vacuumProtocolCheck",
            "inCommitTimestamp");
        line = JSON.writeValueAsString(action);
      }
      lines.add(line);
    }
    Files.write(commit, lines);
  }

  private static void features(ObjectNode protocol, String field, String... names) {
    ArrayNode features =
        protocol.has(field) ? (ArrayNode) protocol.get(field) : protocol.putArray(field);
    for (String name : names) {
      boolean present = false;
      for (JsonNode feature : features) {
        present |= feature.asText().equals(name);
      }
      if (!present) {
        features.add(name);
      }
    }
  }

  private static long inCommitTimestamp(Path commit) throws IOException {
    for (String line : Files.readAllLines(commit)) {
      JsonNode info = JSON.readTree(line).path("commitInfo");
      if (info.has("inCommitTimestamp")) {
        return info.get("inCommitTimestamp").asLong();
      }
    }
    throw new IllegalStateException(commit + " has no in-commit timestamp");
  }
}
