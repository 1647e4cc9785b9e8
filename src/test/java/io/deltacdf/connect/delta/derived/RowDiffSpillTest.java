package io.deltacdf.connect.delta.derived;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.testing.HeldFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A diff too large for its in-memory threshold spills to temp files and still decides every row
 * exactly as the in-memory diff does; once it is closed its files are gone and so are their disk
 * blocks: no mapping or descriptor of this JVM holds them any more. The tiny threshold makes about
 * 1,500 runs, so runs are merged in several rounds and the keys spill too.
 */
class RowDiffSpillTest {

  private static final int ROWS = 5_000;

  @TempDir Path spillRoot;

  /** One candidate row of a version: its side and values (id, amount). */
  private record Candidate(ChangeType side, Object[] values) {}

  @Test
  void aSpilledDiffDecidesLikeTheInMemoryOneAndLeavesNoFiles() throws IOException {
    List<Candidate> candidates = rewrite(new Random(14));
    DiffSpill inMemory = new DiffSpill(Integer.MAX_VALUE, spillRoot);
    DiffSpill tiny = new DiffSpill(7, spillRoot);

    List<ChangeType> expected;
    try (RowDiff diff = build(candidates, inMemory)) {
      assertThat(filesUnder(spillRoot)).as("small diffs stay in memory").isEmpty();
      expected = decideAll(diff, candidates);
    }
    List<ChangeType> spilled;
    try (RowDiff diff = build(candidates, tiny)) {
      assertThat(filesUnder(spillRoot)).as("spill files while the diff is in use").isNotEmpty();
      spilled = decideAll(diff, candidates);
      if (HeldFiles.available()) {
        assertThat(HeldFiles.heldBytes(spillRoot)).as("bytes held while in use").isPositive();
      }
    }

    assertThat(spilled).isEqualTo(expected);
    assertThat(expected)
        .contains(
            ChangeType.UPDATE_PREIMAGE,
            ChangeType.UPDATE_POSTIMAGE,
            ChangeType.DELETE,
            ChangeType.INSERT)
        .containsNull();
    assertThat(filesUnder(spillRoot)).as("spill files after close").isEmpty();
    assertNoBlocksHeld();
  }

  @Test
  void anAbandonedBuildDeletesWhatItSpilled() throws IOException {
    try (RowDiff.Builder builder = new RowDiff.Builder(true, new DiffSpill(7, spillRoot))) {
      RowFingerprints fingerprints = new RowFingerprints();
      for (int i = 0; i < 100; i++) {
        builder.add(ChangeType.DELETE, fingerprints.of(new Object[] {(long) i}), i);
      }
      assertThat(filesUnder(spillRoot)).isNotEmpty();
      if (HeldFiles.available()) {
        // Else a large sort would hold one descriptor per run until its merge.
        assertThat(HeldFiles.openBytes(spillRoot)).as("runs waiting for their merge").isZero();
      }
    }
    assertThat(filesUnder(spillRoot)).isEmpty();
    assertNoBlocksHeld();
  }

  /** Right after close: a deleted file left mapped would keep its blocks until a GC. */
  private void assertNoBlocksHeld() {
    if (HeldFiles.available()) {
      assertThat(HeldFiles.mappedBytes(spillRoot)).as("bytes of spill files mapped").isZero();
      assertThat(HeldFiles.openBytes(spillRoot)).as("bytes of spill files open").isZero();
    }
  }

  /**
   * A copy-on-write rewrite: every row leaves; it enters again unchanged, updated (same id), not at
   * all (deleted), or twice (a duplicate); new ids enter too. Removed files come first.
   */
  private static List<Candidate> rewrite(Random random) {
    List<Candidate> leaving = new ArrayList<>();
    List<Candidate> entering = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      // Few distinct amounts, so that equal rows occur on both sides several times.
      Object[] row = {id % 1_000, id % 7};
      leaving.add(new Candidate(ChangeType.DELETE, row));
      switch (random.nextInt(5)) {
        case 0 -> entering.add(new Candidate(ChangeType.INSERT, new Object[] {row[0], 100L}));
        case 1 -> {}
        case 2 -> {
          entering.add(new Candidate(ChangeType.INSERT, row));
          entering.add(new Candidate(ChangeType.INSERT, row));
        }
        default -> entering.add(new Candidate(ChangeType.INSERT, row));
      }
    }
    for (long id = ROWS; id < ROWS + 200; id++) {
      entering.add(new Candidate(ChangeType.INSERT, new Object[] {id, 1L}));
    }
    leaving.addAll(entering);
    return leaving;
  }

  private static RowDiff build(List<Candidate> candidates, DiffSpill spill) {
    RowFingerprints fingerprints = new RowFingerprints();
    try (RowDiff.Builder builder = new RowDiff.Builder(true, spill)) {
      for (Candidate candidate : candidates) {
        builder.add(candidate.side(), fingerprints.of(candidate.values()), keyOf(candidate));
      }
      return builder.build();
    }
  }

  /** Every row's decision in order, paired by key as a keyed feed pairs them. */
  private static List<ChangeType> decideAll(RowDiff diff, List<Candidate> candidates) {
    RowFingerprints fingerprints = new RowFingerprints();
    List<ChangeType> decisions = new ArrayList<>();
    for (Candidate candidate : candidates) {
      ChangeType change = diff.decide(candidate.side(), fingerprints.of(candidate.values()));
      decisions.add(change == null ? null : diff.paired(change, keyOf(candidate)));
    }
    return decisions;
  }

  private static long keyOf(Candidate candidate) {
    return new RowFingerprints().ofColumns(candidate.values(), new int[] {0});
  }

  private static List<Path> filesUnder(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(path -> !path.equals(root)).toList();
    }
  }
}
