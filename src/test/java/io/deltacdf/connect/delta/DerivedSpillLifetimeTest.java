package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.testing.HeldFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temp files of a derived version whose diff spills (derived.diff.memory.rows far below its
 * candidate rows) exist while the feed reads the version and are gone once the feed has finished
 * it, before any later commit exists; a feed opened again inside the version, as a restarted task
 * does, diffs it again and returns exactly the rest of the first read. Gone means their disk blocks
 * too: no mapping or descriptor of this JVM holds them once the version is read, nor once a feed
 * stops inside the version (a task stopping) or fails there (a data file gone).
 */
class DerivedSpillLifetimeTest {

  /** Far below the update's 1,200 candidate rows, so its diff spills in many runs. */
  private static final int MEMORY_ROWS = 16;

  private static final int BATCH_ROWS = 50;

  @TempDir static Path dir;
  private static String path;

  @BeforeAll
  static void createTable() {
    path = dir.resolve("plain").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, amount BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableDeletionVectors'='false')",
        path);
    // v1: three files; v2 rewrites them all, changing every other row.
    sql("INSERT INTO delta.`%s` SELECT id, id FROM range(0, 300, 1, 3)", path);
    sql("UPDATE delta.`%s` SET amount = amount + 1 WHERE id %% 2 = 0", path);
  }

  @Test
  void spillFilesGoWhenTheVersionIsReadAndComeBackWhenItIsReadAgain() {
    Path spillRoot = dir.resolve("spill-first");
    List<ChangeRow> first = new ArrayList<>();
    ChangePosition inside;
    try (DeltaTable table = derivedTable(spillRoot);
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(2))) {
      ChangeBatch batch = feed.next(BATCH_ROWS);
      assertThat(batch.rows()).hasSize(BATCH_ROWS);
      assertThat(spillFiles(spillRoot)).as("while the version is read").isNotEmpty();
      first.addAll(batch.rows());
      inside = batch.after();
      while (!batch.endsVersion()) {
        batch = feed.next(BATCH_ROWS);
        first.addAll(batch.rows());
      }
      assertThat(spillFiles(spillRoot)).as("once the version is read").isEmpty();
      assertNoBlocksHeld(spillRoot);
      assertThat(feed.next(BATCH_ROWS)).as("no later commit").isNull();
    }
    // 150 updates (pre- and post-image each).
    assertThat(first).hasSize(300);

    Path spillAgain = dir.resolve("spill-again");
    List<ChangeRow> resumed = new ArrayList<>();
    try (DeltaTable table = derivedTable(spillAgain);
        DeltaChangeFeed feed = table.openFeed(inside)) {
      ChangeBatch batch = feed.next(BATCH_ROWS);
      assertThat(spillFiles(spillAgain)).as("read again from inside").isNotEmpty();
      resumed.addAll(batch.rows());
      while (!batch.endsVersion()) {
        batch = feed.next(BATCH_ROWS);
        resumed.addAll(batch.rows());
      }
      assertThat(spillFiles(spillAgain)).isEmpty();
      assertNoBlocksHeld(spillAgain);
    }
    assertThat(describe(resumed)).isEqualTo(describe(first.subList(BATCH_ROWS, first.size())));
  }

  @Test
  void aFeedStoppedOrFailingInsideTheVersionHoldsNoSpillBlocksOnceClosed() throws IOException {
    Path stopped = dir.resolve("spill-stopped");
    try (DeltaTable table = derivedTable(stopped);
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(2))) {
      assertThat(feed.next(BATCH_ROWS).endsVersion()).isFalse();
      if (HeldFiles.available()) {
        assertThat(HeldFiles.heldBytes(stopped)).as("held while the version is read").isPositive();
      }
    }
    assertThat(spillFiles(stopped)).isEmpty();
    assertNoBlocksHeld(stopped);

    Path failed = dir.resolve("spill-failed");
    Path table = Path.of(path);
    Path aside = dir.resolve("aside");
    Files.createDirectories(aside);
    try (DeltaTable derived = derivedTable(failed);
        DeltaChangeFeed feed = derived.openFeed(ChangePosition.InVersion.start(2))) {
      assertThat(feed.next(BATCH_ROWS).endsVersion()).isFalse();
      moveDataFiles(table, aside);
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 100; i++) {
                  feed.next(BATCH_ROWS);
                }
              })
          .as("reading on without the data files")
          .isInstanceOf(RuntimeException.class);
    } finally {
      moveDataFiles(aside, table);
    }
    assertThat(spillFiles(failed)).isEmpty();
    assertNoBlocksHeld(failed);
  }

  /** Right after the version: a deleted file left mapped would keep its blocks until a GC. */
  private static void assertNoBlocksHeld(Path spillRoot) {
    if (HeldFiles.available()) {
      assertThat(HeldFiles.mappedBytes(spillRoot)).as("bytes of spill files mapped").isZero();
      assertThat(HeldFiles.openBytes(spillRoot)).as("bytes of spill files open").isZero();
    }
  }

  private static void moveDataFiles(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".parquet")).toList()) {
        Files.move(file, to.resolve(file.getFileName()));
      }
    }
  }

  private static DeltaTable derivedTable(Path spillRoot) {
    return DeltaTable.open(path, Map.of(), false)
        .withChangeSource(ChangeSource.DERIVED, List.of("id"))
        .withDiffMemoryRows(MEMORY_ROWS)
        .withDiffSpillDirectory(spillRoot);
  }

  /** Every file and folder under {@code root} (none before the first spill). */
  private static List<Path> spillFiles(Path root) {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> !f.equals(root)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> describe(List<ChangeRow> rows) {
    return rows.stream()
        .map(r -> r.label() + Arrays.toString(r.values()) + " " + r.after())
        .toList();
  }
}
