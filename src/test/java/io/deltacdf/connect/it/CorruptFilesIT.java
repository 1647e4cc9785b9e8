package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file of the table that cannot be parsed fails the task on a real worker, with a trace that
 * names the file and the ways out, instead of leaving it RUNNING while it retries the same bytes
 * forever.
 */
class CorruptFilesIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  /** How soon a corrupt file must fail the task. */
  private static final Duration FAILS_WITHIN = Duration.ofSeconds(30);

  @TempDir static Path dir;
  @RegisterExtension static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder());

  @Test
  void aCommitFileThatCannotBeParsedFailsTheTaskNamingTheFile() throws IOException {
    String path = CdfTables.keyed(dir.resolve("commits"));
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    cluster.get().rest().deploy("commits", config(path, "start.mode", "earliest"), WAIT);
    TopicReader.readExactly(cluster.get().bootstrapServers(), "commits", 1, WAIT);

    Path commit = Path.of(path, "_delta_log", "00000000000000000002.json");
    Files.writeString(commit, "{\"add\":{\"path\":\"part-00000.parquet\",\"partitionVal");

    assertFailureNames("commits", commit);
  }

  @Test
  void aCheckpointWhoseChecksumDoesNotMatchFailsTheTaskNamingTheFile() throws IOException {
    Path checkpoint = checkpointedTable("checksummed");
    overwriteWithGarbage(checkpoint, true);

    // A snapshot of version 2 lists its files from the checkpoint.
    cluster
        .get()
        .rest()
        .putConfig("checksummed", config(tablePath(checkpoint), "start.mode", "snapshot"));

    assertFailureNames("checksummed", checkpoint);
  }

  @Test
  void aCheckpointThatIsNoParquetFailsTheTaskNamingTheFile() throws IOException {
    Path checkpoint = checkpointedTable("checkpointed");
    overwriteWithGarbage(checkpoint, false);

    cluster
        .get()
        .rest()
        .putConfig("checkpointed", config(tablePath(checkpoint), "start.mode", "snapshot"));

    assertFailureNames("checkpointed", checkpoint);
  }

  @Test
  void anUndecodableChangeFileOfANewVersionFailsTheTaskNamingTheFile() throws IOException {
    String path = CdfTables.keyed(dir.resolve("changes"));
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path); // v1
    cluster.get().rest().deploy("changes", config(path, "start.mode", "earliest"), WAIT);
    TopicReader.readExactly(cluster.get().bootstrapServers(), "changes", 2, WAIT);

    // Stopped so that the file is broken before the task first reads it.
    cluster.get().rest().stop("changes");
    cluster.get().rest().awaitStopped("changes", WAIT);
    sql("UPDATE delta.`%s` SET name = 'z' WHERE id = 1", path); // v2, with a cdc file
    Path cdcFile = onlyParquetFileIn(Path.of(path, "_change_data"));
    truncate(cdcFile);
    cluster.get().rest().resume("changes");

    assertFailureNames("changes", cdcFile);
  }

  private static void assertFailureNames(String connector, Path file) {
    long start = System.nanoTime();
    String trace = cluster.get().rest().awaitTaskFailed(connector, FAILS_WITHIN);
    System.out.printf(
        "CorruptFilesIT %s: task FAILED after %d ms: %s%n",
        connector, (System.nanoTime() - start) / 1_000_000, trace.lines().findFirst().orElse(""));
    assertThat(trace)
        .contains(file.toString())
        .contains("cannot be parsed")
        .contains("PATCH /connectors/<name>/offsets");
  }

  /** A table with a checkpoint at version 2; returns the checkpoint file. */
  private static Path checkpointedTable(String name) {
    String path = CdfTables.keyed(dir.resolve(name), "delta.checkpointInterval", "2");
    sql("INSERT INTO delta.`%s` VALUES (1, 'a')", path); // v1
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path); // v2
    return Path.of(path, "_delta_log", "00000000000000000002.checkpoint.parquet");
  }

  private static String tablePath(Path logFile) {
    return logFile.getParent().getParent().toString();
  }

  /**
   * Garbage of the file's own length. With {@code keepChecksum} Hadoop's {@code .crc} sidecar stays
   * and reports the mismatch; without it the reader sees the bytes as on an object store.
   */
  private static void overwriteWithGarbage(Path file, boolean keepChecksum) throws IOException {
    byte[] garbage = new byte[(int) Files.size(file)];
    Arrays.fill(garbage, (byte) '#');
    Files.write(file, garbage);
    if (!keepChecksum) {
      Files.delete(checksumOf(file));
    }
  }

  /** Cuts the file in half, as an interrupted upload leaves it; the log keeps its full size. */
  private static void truncate(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
    Files.delete(checksumOf(file));
  }

  private static Path checksumOf(Path file) {
    return file.resolveSibling("." + file.getFileName() + ".crc");
  }

  private static Path onlyParquetFileIn(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".parquet"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("No Parquet file in " + folder));
    }
  }

  private static Map<String, String> config(String path, String... extra) {
    return ConnectorConfig.forTables(path).keyColumns("id").pollIntervalMs(200).with(extra).build();
  }
}
