package io.deltacdf.connect.delta.derived;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.spill.SortedRecords;
import io.deltacdf.connect.delta.spill.SpillDirectory;
import java.util.Arrays;
import java.util.BitSet;
import java.util.stream.LongStream;

/**
 * The changes of one version of a table with row tracking, paired by stable row id: an id only
 * among the rows that leave the table is a delete, one only among the rows that enter it an insert,
 * one on both sides with a different row commit version an update (pre-image on the leaving side,
 * post-image on the entering one), and one on both sides with the same commit version a row copied
 * unchanged, which is no change. Built from a first pass over the version's files, in which each
 * candidate row comes with its file and physical row; after pairing, the diff holds the changed
 * rows by file and position, so a second pass reads those rows alone, from any row of any file,
 * without looking at a row id again.
 *
 * <p>Memory: up to {@link DiffSpill#maxRecordsInMemory} candidate rows, 24 bytes per candidate row
 * while building and 8 per changed row after; beyond it, candidates are sorted in runs on local
 * disk and merged, and the changed rows are written to a file read a block at a time; {@link
 * #close} deletes the files.
 */
public final class RowIdDiff implements AutoCloseable {

  /** A version's files are numbered in 30 bits, to pack a candidate's place in one long. */
  public static final int MAX_FILES = 1 << 30;

  /** A file's rows are numbered in 32 bits. */
  public static final long MAX_ROWS_PER_FILE = 1L << 32;

  /** Per changed row, ascending: its file, physical row, and 1 for one side of an update. */
  private final RecordTable changes;

  private final SpillDirectory spill;

  private RowIdDiff(RecordTable changes, SpillDirectory spill) {
    this.changes = changes;
    this.spill = spill;
  }

  /** The changed rows of file {@code fileIndex} from physical row {@code fromRow} on. */
  public FileChanges changesIn(int fileIndex, long fromRow) {
    long end = changes.size();
    LongStream.Builder rows = LongStream.builder();
    BitSet updates = new BitSet();
    int count = 0;
    for (long at = changes.ceiling(change(fileIndex, fromRow, false)); at < end; at++) {
      long change = changes.get(at, 0);
      if (change >>> 33 != fileIndex) {
        break;
      }
      rows.add((change >>> 1) & (MAX_ROWS_PER_FILE - 1));
      updates.set(count++, (change & 1) == 1);
    }
    return new FileChanges(rows.build().toArray(), updates);
  }

  /** Closes and deletes the version's spill files, if it had any. */
  @Override
  public void close() {
    spill.close();
  }

  private static long change(int fileIndex, long physicalRow, boolean update) {
    return ((long) fileIndex << 33) | (physicalRow << 1) | (update ? 1 : 0);
  }

  /**
   * The changed rows of one file: their physical rows, ascending, and which of them are one side of
   * an update.
   */
  public record FileChanges(long[] rows, BitSet updates) {

    /**
     * What changed row {@code physicalRow} becomes: {@code side} is {@link ChangeType#DELETE} for a
     * file's rows leaving the table and {@link ChangeType#INSERT} for those entering it. Null for a
     * row that is no change.
     */
    public ChangeType decide(ChangeType side, long physicalRow) {
      int at = Arrays.binarySearch(rows, physicalRow);
      if (at < 0) {
        return null;
      }
      if (!updates.get(at)) {
        return side;
      }
      return side == ChangeType.DELETE ? ChangeType.UPDATE_PREIMAGE : ChangeType.UPDATE_POSTIMAGE;
    }
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

    /** Set in a candidate's place for a row entering the table: it sorts after a leaving one. */
    private static final long ENTERING = 1L << 62;

    private final SpillDirectory spill;
    private final SortedRecords candidates;
    private final SortedRecords changed;
    private boolean built;

    // The group of one row id being paired while building.
    private long groupId;
    private boolean groupLeaving;
    private boolean groupEntering;
    private long groupLeavingVersion;
    private long groupEnteringVersion;
    private long groupLeavingPlace;
    private long groupEnteringPlace;

    public Builder(DiffSpill limits) {
      this.spill = new SpillDirectory(limits.directory(), "delta-cdf-rowid-");
      this.candidates = new SortedRecords(3, limits.maxRecordsInMemory(), spill);
      this.changed = new SortedRecords(1, limits.maxRecordsInMemory(), spill);
    }

    /**
     * A candidate row: leaving ({@code side} delete) or entering the table, at {@code physicalRow}
     * of the version's file {@code fileIndex} (below {@link #MAX_FILES} and {@link
     * #MAX_ROWS_PER_FILE}).
     */
    public void add(
        ChangeType side, long rowId, long rowCommitVersion, int fileIndex, long physicalRow) {
      if (fileIndex < 0 || fileIndex >= MAX_FILES) {
        throw new IllegalArgumentException("File index " + fileIndex + " out of range");
      }
      if (physicalRow < 0 || physicalRow >= MAX_ROWS_PER_FILE) {
        throw new IllegalArgumentException("Physical row " + physicalRow + " out of range");
      }
      long place = ((long) fileIndex << 32) | physicalRow;
      candidates.add(rowId, side == ChangeType.INSERT ? ENTERING | place : place, rowCommitVersion);
    }

    /**
     * Pairs the candidates by row id.
     *
     * @throws DuplicateRowIdException when an id appears twice on one side
     */
    public RowIdDiff build() {
      try (SortedRecords.Cursor sorted = candidates.sorted()) {
        boolean inGroup = false;
        while (sorted.next()) {
          long id = sorted.get(0);
          long place = sorted.get(1);
          boolean entering = (place & ENTERING) != 0;
          if (inGroup && id == groupId) {
            if (entering == groupEntering || !groupLeaving) {
              throw new DuplicateRowIdException(id);
            }
            groupEntering = true;
            groupEnteringVersion = sorted.get(2);
            groupEnteringPlace = place;
            continue;
          }
          if (inGroup) {
            endGroup();
          }
          inGroup = true;
          groupId = id;
          // Sorted by place, whose top bit is the side: a leaving row comes before the entering
          // one.
          groupLeaving = !entering;
          groupEntering = entering;
          groupLeavingVersion = sorted.get(2);
          groupEnteringVersion = sorted.get(2);
          groupLeavingPlace = place;
          groupEnteringPlace = place;
        }
        if (inGroup) {
          endGroup();
        }
      }
      RecordTable.Writer table = RecordTable.Writer.of(changed.spilled(), 1, spill, "changed-");
      try (SortedRecords.Cursor sorted = changed.sorted()) {
        while (sorted.next()) {
          table.add(sorted.get(0), 0, 0);
        }
      }
      RowIdDiff diff = new RowIdDiff(table.finish(), spill);
      built = true;
      return diff;
    }

    private void endGroup() {
      if (!groupLeaving) {
        addChange(groupEnteringPlace, false);
      } else if (!groupEntering) {
        addChange(groupLeavingPlace, false);
      } else if (groupLeavingVersion != groupEnteringVersion) {
        addChange(groupLeavingPlace, true);
        addChange(groupEnteringPlace, true);
      }
    }

    private void addChange(long place, boolean update) {
      int fileIndex = (int) ((place & ~ENTERING) >>> 32);
      changed.add(change(fileIndex, place & (MAX_ROWS_PER_FILE - 1), update), 0, 0);
    }

    @Override
    public void close() {
      if (!built) {
        spill.close();
      }
    }
  }
}
