package io.deltacdf.connect.delta.log;

import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.exceptions.KernelException;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.EndSpec;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.TableAccess;
import java.time.Instant;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Where a feed starts: from a {@link StartSpec} for a table read for the first time, or from a
 * position Connect stored, checked against what the log still holds.
 */
public final class StartResolver {

  private final FeedContext context;
  private final DeltaLog log;
  private final TableHistory history;

  public StartResolver(FeedContext context, DeltaLog log, TableHistory history) {
    this.context = context;
    this.log = log;
    this.history = history;
  }

  /**
   * Checks a position Connect stored for this table, which an operator may have altered through the
   * REST API, before a feed resumes there. A version after the latest + 1 (the next commit) fails
   * as {@link DeltaFeedException.Kind#INVALID_START}, never as missing history, so that it is never
   * answered with a re-snapshot; a version whose history was cleaned up fails as {@link
   * DeltaFeedException.Kind#HISTORY_MISSING}. Both messages name the table and the stored version.
   */
  public void checkStored(ChangePosition stored, Supplier<Snapshot> latest) {
    if (commitIsInTheLog(stored)) {
      return;
    }
    long latestVersion = latest.get().getVersion();
    long version = stored.version();
    boolean inSnapshot = stored.inSnapshot();
    long newest = inSnapshot ? latestVersion : latestVersion + 1;
    if (version > newest) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.INVALID_START,
          storedOffsetAt(version)
              + ", after "
              + (inSnapshot
                  ? "the table's latest version " + latestVersion
                  : "the table's latest version " + latestVersion + " + 1 (its next commit)")
              + ": the offset was altered beyond the table, or the path now holds another table."
              + " Set an offset up to version "
              + (latestVersion + 1)
              + " (PATCH /connectors/<name>/offsets), or reset the offsets (DELETE) to start as"
              + " start.mode says");
    }
    if (version > latestVersion || historyReaches(stored)) {
      return;
    }
    throw new DeltaFeedException(
        DeltaFeedException.Kind.HISTORY_MISSING,
        storedOffsetAt(version)
            + ", whose history is gone from the log (cleaned up after its retention period); the"
            + " earliest version that can be read is "
            + history.earliestReadable(latestVersion)
            + ". Move the offset there or later (PATCH /connectors/<name>/offsets), or set"
            + " on.history.missing=resnapshot to start over from a snapshot");
  }

  private String storedOffsetAt(long version) {
    return "The stored offset of table " + context.table() + " is at version " + version;
  }

  /**
   * Whether a version offset is plainly valid by a listing alone: its commit, or the one before it
   * (then it is the next commit), is in the log. Spares a restart the latest snapshot's load, which
   * replays the log since its last checkpoint.
   */
  private boolean commitIsInTheLog(ChangePosition stored) {
    if (stored.inSnapshot()) {
      return false;
    }
    long version = stored.version();
    return !log.commitsFrom(version, 1).isEmpty()
        || (version > 0 && !log.commitsFrom(version - 1, 1).isEmpty());
  }

  /** Whether the log still holds what a feed resuming at {@code position} reads first. */
  private boolean historyReaches(ChangePosition position) {
    if (!position.inSnapshot()) {
      return !log.commitsFrom(position.version(), 1).isEmpty();
    }
    try {
      TableAccess.snapshotAt(context, position.version());
      return true;
    } catch (DeltaFeedException e) {
      if (e.kind() != DeltaFeedException.Kind.HISTORY_MISSING) {
        throw e;
      }
      return false;
    }
  }

  /**
   * Where a feed started with {@code start} begins, after checking that the change data feed can be
   * read from there.
   */
  public ChangePosition resolveStart(StartSpec start, Supplier<Snapshot> latestSnapshot) {
    Snapshot latest = latestSnapshot.get();
    long latestVersion = latest.getVersion();
    if (start instanceof StartSpec.Snapshot) {
      history.requireReadableForSnapshot(TableMetadata.of(latest), latestVersion);
      return ChangePosition.InSnapshot.start(latestVersion);
    }
    if (start instanceof StartSpec.Latest) {
      history.requireReadable(TableMetadata.of(latest), latestVersion, latestVersion);
      return ChangePosition.InVersion.start(latestVersion + 1);
    }
    if (start instanceof StartSpec.AtVersion at) {
      return ChangePosition.InVersion.start(checkedStart(at.version(), latestVersion));
    }
    if (start instanceof StartSpec.AtTimestamp at) {
      return ChangePosition.InVersion.start(
          checkedStart(versionAtOrAfter(at.epochMillis(), latest), latestVersion));
    }
    return ChangePosition.InVersion.start(history.earliestReadable(latestVersion));
  }

  /**
   * The last version a bounded run reads: end.version as it is, or for end.timestamp the last
   * version committed at or before it. An end.timestamp at or after the latest commit resolves to
   * the latest version only when it has passed (per {@code nowMs}): before that, a commit still to
   * come may fall before it, and the end is refused rather than guessed.
   */
  public long resolveEnd(EndSpec end, Supplier<Snapshot> latestSnapshot, LongSupplier nowMs) {
    if (end instanceof EndSpec.AtVersion at) {
      return at.version();
    }
    long endMillis = ((EndSpec.AtTimestamp) end).epochMillis();
    Snapshot latest = latestSnapshot.get();
    long latestCommitMillis = latest.getTimestamp(context.engine());
    if (endMillis >= latestCommitMillis) {
      if (endMillis >= nowMs.getAsLong()) {
        throw new DeltaFeedException(
            DeltaFeedException.Kind.INVALID_START,
            "end.timestamp="
                + Instant.ofEpochMilli(endMillis)
                + " has not passed yet, and table "
                + context.table()
                + " committed its latest version "
                + latest.getVersion()
                + " at "
                + Instant.ofEpochMilli(latestCommitMillis)
                + ": a commit still to come may fall before the end, so it cannot be resolved to"
                + " a version. Set end.timestamp to an instant that has passed, or end.version");
      }
      return latest.getVersion();
    }
    long last = versionAtOrAfter(endMillis + 1, latest) - 1;
    if (last < 0) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.INVALID_START,
          "No version of table "
              + context.table()
              + " was committed at or before end.timestamp="
              + Instant.ofEpochMilli(endMillis)
              + ": set end.timestamp after its first commit");
    }
    return last;
  }

  private long checkedStart(long version, long latestVersion) {
    if (version < 0) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.INVALID_START,
          "Start version " + version + " is negative; versions start at 0");
    }
    if (version > latestVersion) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.INVALID_START,
          "Start version "
              + version
              + " of table "
              + context.table()
              + " is after its latest version "
              + latestVersion
              + "; use a version up to "
              + latestVersion
              + ", or start.mode=latest to read only new changes");
    }
    Snapshot snapshot;
    try {
      snapshot = TableAccess.snapshotAt(context, version);
    } catch (DeltaFeedException e) {
      if (e.kind() != DeltaFeedException.Kind.HISTORY_MISSING) {
        throw e;
      }
      throw new DeltaFeedException(
          DeltaFeedException.Kind.HISTORY_MISSING,
          "Table "
              + context.table()
              + " no longer has the history of version "
              + version
              + " (its log was cleaned up); the earliest readable version is "
              + history.earliestReadable(latestVersion)
              + ". Start there, or from a snapshot",
          e);
    }
    history.requireReadable(TableMetadata.of(snapshot), version, latestVersion);
    return version;
  }

  private long versionAtOrAfter(long epochMillis, Snapshot latest) {
    try {
      if (context.catalogCommits().isPresent()) {
        return context
            .catalogCommits()
            .get()
            .rangeFromTimestamp(context.engine(), context.tableRoot(), epochMillis)
            .getStartVersion();
      }
      return TableManager.loadCommitRange(
              context.tableRoot(), CommitBoundary.atTimestamp(epochMillis, latest))
          .build(context.engine())
          .getStartVersion();
    } catch (KernelException e) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.INVALID_START,
          "No version of table "
              + context.table()
              + " was committed at or after "
              + java.time.Instant.ofEpochMilli(epochMillis)
              + " (its latest version is "
              + latest.getVersion()
              + "): "
              + e.getMessage(),
          e);
    }
  }
}
