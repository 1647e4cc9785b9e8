package io.deltacdf.connect.delta.derived;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.spill.SortedRecords;
import io.deltacdf.connect.delta.spill.SpillDirectory;

/**
 * The multiset difference between the rows that leave the table in one version and the rows that
 * enter it, as fingerprints: which rows are real deletes and inserts, and which are only rewritten
 * unchanged (copy-on-write). Built from a first pass over the version's files; the second pass asks
 * {@link #decide} about each row in the same fixed order.
 *
 * <p>For a fingerprint that leaves {@code r} times and enters {@code a} times, the first {@code r -
 * a} leaving occurrences (in file order, then row order) are deletes when {@code r > a}, the first
 * {@code a - r} entering ones inserts when {@code a > r}; the rest produce nothing. The decision
 * depends only on the rows decided before, so a reader resuming inside the version replays the
 * decisions up to its position and then continues exactly.
 *
 * <p>Memory: up to {@link DiffSpill#maxRecordsInMemory} candidate rows, the diff stays on the heap:
 * 16 bytes per candidate row while building (24 with key columns), then 24 (32) bytes per changed
 * row. Beyond it, candidates are sorted in runs on local disk and merged, and the changed
 * fingerprints and keys are looked up in the files a block at a time, so the heap holds at most one
 * run's buffer and a block index of 1 MiB per file whatever the version's size; {@link #close}
 * closes and deletes the files, which frees their disk blocks at once. Fingerprints keep 127 of
 * their bits (one carries the side), so two distinct rows among n collide with probability below
 * n^2 / 2^128.
 */
public final class RowDiff implements AutoCloseable {

  /** Per changed fingerprint: high, low, then inserts still to emit (positive) or deletes. */
  private static final int STRIDE = 3;

  private final RecordTable changed;
  private final RecordTable deletedKeys;
  private final RecordTable insertedKeys;
  private final SpillDirectory spill;

  private RowDiff(
      RecordTable changed,
      RecordTable deletedKeys,
      RecordTable insertedKeys,
      SpillDirectory spill) {
    this.changed = changed;
    this.deletedKeys = deletedKeys;
    this.insertedKeys = insertedKeys;
    this.spill = spill;
  }

  /**
   * What a candidate row becomes: {@code side} is {@link ChangeType#DELETE} for a row leaving the
   * table and {@link ChangeType#INSERT} for one entering it. Returns null for a row that is only
   * rewritten, else {@code side}. Consumes the row's share: call once per row, in order.
   */
  public ChangeType decide(ChangeType side, RowFingerprints.Fingerprint fingerprint) {
    long record = changed.find(fingerprint.high(), fingerprint.low() & ~1L);
    if (record < 0) {
      return null;
    }
    long remaining = changed.get(record, 2);
    boolean leaving = side == ChangeType.DELETE;
    if (leaving ? remaining >= 0 : remaining <= 0) {
      return null;
    }
    changed.set(record, 2, remaining + (leaving ? 1 : -1));
    return side;
  }

  /**
   * A changed row of key fingerprint {@code key} as an update image when the other side of the
   * version changes a row of the same key, else as {@code side}.
   */
  public ChangeType paired(ChangeType side, long key) {
    if (side == ChangeType.DELETE) {
      return insertedKeys.find(key, 0) >= 0 ? ChangeType.UPDATE_PREIMAGE : side;
    }
    return deletedKeys.find(key, 0) >= 0 ? ChangeType.UPDATE_POSTIMAGE : side;
  }

  /** Closes and deletes the version's spill files, if it had any: their disk blocks go now. */
  @Override
  public void close() {
    spill.close();
  }

  /**
   * Collects the candidate rows of a version's first pass. Closing it without {@link #build}ing
   * deletes what it spilled.
   */
  public static final class Builder implements AutoCloseable {
    private final boolean keyed;
    private final int maxInMemory;
    private final SpillDirectory spill;
    private final SortedRecords candidates;
    private boolean built;

    // The group of equal fingerprints being summed while building.
    private long groupHigh;
    private long groupLow;
    private long groupKey;
    private long groupNet;

    /**
     * @param keyed whether rows carry a key fingerprint (key columns are set)
     */
    public Builder(boolean keyed, DiffSpill limits) {
      this.keyed = keyed;
      this.maxInMemory = limits.maxRecordsInMemory();
      this.spill = new SpillDirectory(limits.directory(), "delta-cdf-diff-");
      this.candidates = new SortedRecords(keyed ? 3 : 2, maxInMemory, spill);
    }

    public void add(ChangeType side, RowFingerprints.Fingerprint fingerprint, long key) {
      long low = (fingerprint.low() & ~1L) | (side == ChangeType.INSERT ? 1 : 0);
      candidates.add(fingerprint.high(), low, key);
    }

    public RowDiff build() {
      RecordTable.Writer changed =
          RecordTable.Writer.of(candidates.spilled(), STRIDE, spill, "changed-");
      SortedRecords deleted = new SortedRecords(1, maxInMemory, spill);
      SortedRecords inserted = new SortedRecords(1, maxInMemory, spill);
      try (SortedRecords.Cursor sorted = candidates.sorted()) {
        boolean inGroup = false;
        while (sorted.next()) {
          long high = sorted.get(0);
          long low = sorted.get(1);
          if (!inGroup || high != groupHigh || (low & ~1L) != groupLow) {
            if (inGroup) {
              endGroup(changed, deleted, inserted);
            }
            groupHigh = high;
            groupLow = low & ~1L;
            groupKey = keyed ? sorted.get(2) : 0;
            groupNet = 0;
            inGroup = true;
          }
          groupNet += (low & 1L) == 1 ? 1 : -1;
        }
        if (inGroup) {
          endGroup(changed, deleted, inserted);
        }
      }
      RowDiff diff =
          new RowDiff(
              changed.finish(),
              sortedKeys(deleted, "deleted-"),
              sortedKeys(inserted, "inserted-"),
              spill);
      built = true;
      return diff;
    }

    private void endGroup(
        RecordTable.Writer changed, SortedRecords deleted, SortedRecords inserted) {
      if (groupNet == 0) {
        return;
      }
      changed.add(groupHigh, groupLow, groupNet);
      if (keyed) {
        (groupNet < 0 ? deleted : inserted).add(groupKey, 0, 0);
      }
    }

    private RecordTable sortedKeys(SortedRecords keys, String name) {
      RecordTable.Writer writer = RecordTable.Writer.of(keys.spilled(), 1, spill, name);
      try (SortedRecords.Cursor sorted = keys.sorted()) {
        while (sorted.next()) {
          writer.add(sorted.get(0), 0, 0);
        }
      }
      return writer.finish();
    }

    @Override
    public void close() {
      if (!built) {
        spill.close();
      }
    }
  }
}
