package io.deltacdf.connect.delta.derived;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.spill.SortedRecords;
import io.deltacdf.connect.delta.spill.SpillDirectory;

/**
 * The changes of one version of a table with row tracking, paired by stable row id: an id only
 * among the rows that leave the table is a delete, one only among the rows that enter it an insert,
 * one on both sides with a different row commit version an update (pre-image on the leaving side,
 * post-image on the entering one), and one on both sides with the same commit version a row copied
 * unchanged, which is no change. Built from a first pass over the version's files; the second pass
 * asks {@link #decide} about each candidate row. Unlike {@link RowDiff}'s, a decision depends on
 * the row's id alone, so a reader can resume anywhere inside the version without replaying.
 *
 * <p>Memory: up to {@link DiffSpill#maxRecordsInMemory} candidate rows, 24 bytes per candidate row
 * while building and 24 per changed row id after; beyond it, candidates are sorted in runs on local
 * disk and merged, and changed ids are looked up in a file a block at a time; {@link #close}
 * deletes the files.
 */
public final class RowIdDiff implements AutoCloseable {

  private static final long DELETE = 1;
  private static final long INSERT = 2;
  private static final long UPDATE = 3;

  /** Per changed row id: the id, 0, then what it became. */
  private final RecordTable changed;

  private final SpillDirectory spill;

  private RowIdDiff(RecordTable changed, SpillDirectory spill) {
    this.changed = changed;
    this.spill = spill;
  }

  /**
   * What a candidate row of stable id {@code rowId} becomes: {@code side} is {@link
   * ChangeType#DELETE} for a row leaving the table and {@link ChangeType#INSERT} for one entering
   * it. Null for a row copied unchanged.
   */
  public ChangeType decide(ChangeType side, long rowId) {
    long record = changed.find(rowId, 0);
    if (record < 0) {
      return null;
    }
    long change = changed.get(record, 2);
    if (change == UPDATE) {
      return side == ChangeType.DELETE ? ChangeType.UPDATE_PREIMAGE : ChangeType.UPDATE_POSTIMAGE;
    }
    return change == (side == ChangeType.DELETE ? DELETE : INSERT) ? side : null;
  }

  /** Closes and deletes the version's spill files, if it had any. */
  @Override
  public void close() {
    spill.close();
  }

  /** The same row id twice on one side of a version: row tracking cannot pair it. */
  public static final class DuplicateRowIdException extends RuntimeException {
    private final long rowId;

    DuplicateRowIdException(long rowId) {
      super("Row id " + rowId + " appears twice on one side of the version");
      this.rowId = rowId;
    }

    public long rowId() {
      return rowId;
    }
  }

  /**
   * Collects the candidate rows of a version's first pass. Closing it without {@link #build}ing
   * deletes what it spilled.
   */
  public static final class Builder implements AutoCloseable {
    private final int maxInMemory;
    private final SpillDirectory spill;
    private final SortedRecords candidates;
    private boolean built;

    // The group of one row id being paired while building.
    private long groupId;
    private boolean groupLeaving;
    private boolean groupEntering;
    private long groupLeavingVersion;
    private long groupEnteringVersion;

    public Builder(DiffSpill limits) {
      this.maxInMemory = limits.maxRecordsInMemory();
      this.spill = new SpillDirectory(limits.directory(), "delta-cdf-rowid-");
      this.candidates = new SortedRecords(3, maxInMemory, spill);
    }

    /** A candidate row: leaving ({@code side} delete) or entering the table. */
    public void add(ChangeType side, long rowId, long rowCommitVersion) {
      candidates.add(rowId, side == ChangeType.INSERT ? 1 : 0, rowCommitVersion);
    }

    /**
     * Pairs the candidates by row id.
     *
     * @throws DuplicateRowIdException when an id appears twice on one side
     */
    public RowIdDiff build() {
      RecordTable.Writer changed =
          RecordTable.Writer.of(candidates.spilled(), 3, spill, "changed-");
      try (SortedRecords.Cursor sorted = candidates.sorted()) {
        boolean inGroup = false;
        while (sorted.next()) {
          long id = sorted.get(0);
          boolean entering = sorted.get(1) == 1;
          if (inGroup && id == groupId) {
            if (entering == groupEntering || !groupLeaving) {
              throw new DuplicateRowIdException(id);
            }
            groupEntering = true;
            groupEnteringVersion = sorted.get(2);
            continue;
          }
          if (inGroup) {
            endGroup(changed);
          }
          inGroup = true;
          groupId = id;
          // Sorted by side: a leaving row comes before the entering one of its id.
          groupLeaving = !entering;
          groupEntering = entering;
          groupLeavingVersion = sorted.get(2);
          groupEnteringVersion = sorted.get(2);
        }
        if (inGroup) {
          endGroup(changed);
        }
      }
      RowIdDiff diff = new RowIdDiff(changed.finish(), spill);
      built = true;
      return diff;
    }

    private void endGroup(RecordTable.Writer changed) {
      if (!groupLeaving) {
        changed.add(groupId, 0, INSERT);
      } else if (!groupEntering) {
        changed.add(groupId, 0, DELETE);
      } else if (groupLeavingVersion != groupEnteringVersion) {
        changed.add(groupId, 0, UPDATE);
      }
    }

    @Override
    public void close() {
      if (!built) {
        spill.close();
      }
    }
  }
}
