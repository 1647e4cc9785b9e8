package io.deltacdf.connect.delta.plan;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.log.CommitReader;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.spill.SortedRecords;
import io.deltacdf.connect.delta.spill.SpillDirectory;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The deletion vector updates of a commit too large to hold (files removed and added again; the
 * protocol puts the two actions anywhere in the commit, in either order), kept in local temp files
 * instead of on the heap. The commit's data actions are numbered in log order. One read of the
 * commit writes the actions of candidate paths to a file and sorts their path fingerprints with
 * their numbers and places in it, which brings the two actions of a path together; each pair is
 * then sorted again under the numbers of both its actions, so that a read of the commit in log
 * order meets them in order: the update's file at its first action, nothing at its second. The
 * sorts spill in runs beyond {@link DiffSpill#maxRecordsInMemory} records ({@link SortedRecords}).
 *
 * <p>{@link #close} deletes the files; a later {@link #cursor} finds the updates again.
 */
public final class DvUpdates implements AutoCloseable {

  /** No updates. */
  public static final DvUpdates NONE = new DvUpdates(null, null, null, new Found(null, 0, false));

  /** In place of the places of an update's actions: this is its second action. */
  private static final long SECOND_ACTION = -1;

  private static final int BUFFER_BYTES = 1 << 16;

  private final CommitReader reader;
  private final long[] candidates;
  private final DiffSpill limits;
  private final int count;
  private final boolean unhidesRows;

  /** Null for no updates, and once closed. */
  private Spilled spilled;

  private DvUpdates(CommitReader reader, long[] candidates, DiffSpill limits, Found found) {
    this.reader = reader;
    this.candidates = candidates;
    this.limits = limits;
    this.count = found.count();
    this.unhidesRows = found.unhidesRows();
    this.spilled = found.spilled();
  }

  /**
   * The updates of the commit {@code reader} reads, among the paths whose fingerprints are in
   * {@code candidates} (sorted): those both added and removed, and any that share a fingerprint.
   */
  public static DvUpdates find(CommitReader reader, long[] candidates, DiffSpill limits) {
    if (candidates.length == 0) {
      return NONE;
    }
    Found found = find(reader, candidates, limits, -1);
    return found.count() == 0 ? NONE : new DvUpdates(reader, candidates, limits, found);
  }

  public int count() {
    return count;
  }

  /** Whether an update's removed action had a deletion vector, so rows may come back (RESTORE). */
  public boolean unhidesRows() {
    return unhidesRows;
  }

  /** The updates in the order of the commit's data actions, from its first. */
  public Cursor cursor() {
    if (spilled == null && count > 0) {
      spilled = find(reader, candidates, limits, count).spilled();
    }
    return new Cursor(spilled);
  }

  @Override
  public void close() {
    if (spilled != null) {
      spilled.close();
      spilled = null;
    }
  }

  /** Whether {@code file} is one of the data actions that the updates' numbers count. */
  public static boolean isData(LogAction.FileAction file) {
    return file.kind() != LogAction.Kind.CDC && file.dataChange();
  }

  /**
   * What one finding wrote: the candidates' actions, and {@code updates}, records of three longs
   * sorted by the first, an action's number: then the places of the update's added and removed
   * actions at its first action, {@link #SECOND_ACTION} twice at its second.
   */
  private record Spilled(SpillDirectory spill, SpilledFileActions actions, Path updates) {
    public void close() {
      try (spill) {
        actions.close();
      }
    }
  }

  private record Found(Spilled spilled, int count, boolean unhidesRows) {}

  /** Finds the updates; when {@code expected} is not -1, fails unless there are as many. */
  private static Found find(
      CommitReader reader, long[] candidates, DiffSpill limits, int expected) {
    SpillDirectory spill = new SpillDirectory(limits.directory(), "delta-cdf-plan-");
    SpilledFileActions actions = null;
    try {
      actions = new SpilledFileActions(spill.newPath("actions-"));
      SortedRecords byPath = new SortedRecords(3, limits.maxRecordsInMemory(), spill);
      keepCandidates(reader, candidates, actions, byPath);
      Pairing pairing = new Pairing(actions, limits.maxRecordsInMemory(), spill);
      try (SortedRecords.Cursor sorted = byPath.sorted()) {
        while (sorted.next()) {
          pairing.add(sorted.get(0), sorted.get(1), sorted.get(2));
        }
      }
      pairing.endGroup();
      if (expected >= 0 && pairing.count != expected) {
        throw new IllegalStateException(
            "The commit holds "
                + pairing.count
                + " deletion vector updates, not the "
                + expected
                + " planned from it");
      }
      if (pairing.count == 0) {
        actions.close();
        spill.close();
        return new Found(null, 0, false);
      }
      Path updates = spill.newPath("updates-");
      write(pairing.byNumber, updates);
      return new Found(new Spilled(spill, actions, updates), pairing.count, pairing.unhidesRows);
    } catch (RuntimeException e) {
      try (spill) {
        if (actions != null) {
          actions.close();
        }
      }
      throw e;
    }
  }

  /** Keeps the candidates' actions, and their fingerprints, numbers and places for sorting. */
  private static void keepCandidates(
      CommitReader reader, long[] candidates, SpilledFileActions actions, SortedRecords byPath) {
    long number = 0;
    try (CloseableIterator<ColumnarBatch> batches = reader.read()) {
      while (batches.hasNext()) {
        LogActions batch = LogActions.of(batches.next());
        for (int row = 0; row < batch.size(); row++) {
          if (batch.at(row) instanceof LogAction.FileAction file && isData(file)) {
            if (PathFingerprints.contains(candidates, file.path())) {
              byPath.add(PathFingerprints.of(file.path()), number, actions.append(file));
            }
            number++;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(SortedRecords records, Path file) {
    try (SortedRecords.Cursor sorted = records.sorted();
        DataOutputStream out =
            new DataOutputStream(
                new BufferedOutputStream(Files.newOutputStream(file), BUFFER_BYTES))) {
      while (sorted.next()) {
        for (int field = 0; field < 3; field++) {
          out.writeLong(sorted.get(field));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write spill file " + file, e);
    }
  }

  /**
   * Pairs the added and the removed action of each path, given the candidates sorted by
   * fingerprint: the actions of one fingerprint are one path's, unless paths share it.
   */
  private static final class Pairing {
    private final SpilledFileActions actions;
    public final SortedRecords byNumber;

    /** The number and place of each action of the fingerprint being read. */
    private final List<long[]> group = new ArrayList<>();

    private long fingerprint;
    public int count;
    public boolean unhidesRows;

    public Pairing(SpilledFileActions actions, int maxInMemory, SpillDirectory spill) {
      this.actions = actions;
      this.byNumber = new SortedRecords(3, maxInMemory, spill);
    }

    public void add(long fingerprint, long number, long place) {
      if (!group.isEmpty() && fingerprint != this.fingerprint) {
        endGroup();
      }
      this.fingerprint = fingerprint;
      group.add(new long[] {number, place});
    }

    public void endGroup() {
      List<LogAction.FileAction> read = new ArrayList<>(group.size());
      for (long[] action : group) {
        read.add(actions.read(action[1]));
      }
      for (int add = 0; add < group.size(); add++) {
        if (read.get(add).kind() == LogAction.Kind.ADD) {
          for (int remove = 0; remove < group.size(); remove++) {
            LogAction.FileAction removed = read.get(remove);
            if (removed.kind() == LogAction.Kind.REMOVE
                && removed.path().equals(read.get(add).path())) {
              pair(group.get(add), group.get(remove), removed);
              break;
            }
          }
        }
      }
      group.clear();
    }

    private void pair(long[] add, long[] remove, LogAction.FileAction removed) {
      count++;
      unhidesRows |= removed.deletionVector() != null;
      byNumber.add(Math.min(add[0], remove[0]), add[1], remove[1]);
      byNumber.add(Math.max(add[0], remove[0]), SECOND_ACTION, SECOND_ACTION);
    }
  }

  /** The updates met by a read of the commit's data actions in log order. */
  public static final class Cursor implements AutoCloseable {
    private final Spilled spilled;
    private final DataInputStream in;

    /** The number of the next action that is an update's, or -1 after the last. */
    private long next = -1;

    private long nextAdded;
    private long nextRemoved;
    private long added;
    private long removed;

    private Cursor(Spilled spilled) {
      this.spilled = spilled;
      try {
        this.in =
            spilled == null
                ? null
                : new DataInputStream(
                    new BufferedInputStream(Files.newInputStream(spilled.updates()), BUFFER_BYTES));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      advance();
    }

    /**
     * Whether data action {@code number} is one of an update's two; each number is asked for once,
     * in increasing order.
     */
    public boolean isUpdate(long number) {
      if (next != number) {
        return false;
      }
      added = nextAdded;
      removed = nextRemoved;
      advance();
      return true;
    }

    /**
     * The file of the update whose action {@link #isUpdate} found: at its first action, the file
     * with both deletion vectors; null at its second.
     */
    public ChangeFile file() {
      if (added == SECOND_ACTION) {
        return null;
      }
      return ChangeFile.dvUpdate(spilled.actions().read(added), spilled.actions().read(removed));
    }

    @Override
    public void close() {
      if (in != null) {
        try {
          in.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }

    private void advance() {
      if (in == null) {
        return;
      }
      try {
        next = in.readLong();
        nextAdded = in.readLong();
        nextRemoved = in.readLong();
      } catch (EOFException end) {
        next = -1;
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read spill file " + spilled.updates(), e);
      }
    }
  }
}
