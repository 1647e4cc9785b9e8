package io.deltacdf.connect.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.delta.testing.HugeDvCommitTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit's deletion vector updates paired from its log in spilled runs (two records on the heap:
 * hundreds of runs, merged in more than one round) read exactly as the plan that holds the commit
 * reads them: the same rows at the same positions. Their temp files exist while the version is read
 * and are gone once it is.
 */
class DvUpdatesSpillTest {

  private static final int UPDATES = 300;
  private static final int BATCH_ROWS = 50;

  @TempDir static Path dir;

  @Test
  void pairsSortedOnDiskReadAsTheHeldPlan() throws IOException {
    Path table = dir.resolve("dv");
    HugeDvCommitTable.create(table, UPDATES);
    List<String> held = read(DeltaTable.open(table.toString(), Map.of(), false), null);
    assertThat(held).hasSize(UPDATES).allMatch(row -> row.startsWith("delete "));

    Path spill = dir.resolve("spill");
    DeltaTable streamed =
        DeltaTable.open(table.toString(), Map.of(), false)
            .withPlanMemoryFiles(0)
            .withDiffMemoryRows(2)
            .withDiffSpillDirectory(spill);
    assertThat(read(streamed, spill)).isEqualTo(held);
    assertThat(files(spill)).as("once the version is read").isEmpty();
  }

  /** The rows of the huge version; checks that {@code spill} has files while it is read. */
  private static List<String> read(DeltaTable table, Path spill) {
    List<String> rows = new ArrayList<>();
    try (table;
        DeltaChangeFeed feed =
            table.openFeed(ChangePosition.InVersion.start(HugeDvCommitTable.VERSION))) {
      ChangeBatch batch;
      while ((batch = feed.next(BATCH_ROWS)) != null) {
        if (spill != null && !batch.endsVersion()) {
          assertThat(files(spill)).as("while the version is read").isNotEmpty();
        }
        for (ChangeRow row : batch.rows()) {
          rows.add(row.label() + " " + row.after() + " " + Arrays.toString(row.values()));
        }
      }
    }
    return rows;
  }

  private static List<Path> files(Path root) {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
