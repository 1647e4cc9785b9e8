package io.deltacdf.connect.delta.feed;

import io.delta.kernel.CommitActions;
import io.delta.kernel.Snapshot;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.VersionSourceCounts;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.log.CommitRanges;
import io.deltacdf.connect.delta.log.CommitTimestamps;
import io.deltacdf.connect.delta.log.DeltaLog;
import io.deltacdf.connect.delta.plan.ChangeFiles;
import io.deltacdf.connect.delta.plan.CommitPlanner;
import io.deltacdf.connect.delta.plan.VersionPlan;
import io.deltacdf.connect.delta.read.FileRowCursor;
import io.deltacdf.connect.delta.read.OpenedFile;
import io.deltacdf.connect.delta.read.PartitionFilter;
import io.deltacdf.connect.delta.rowtracking.RowTracking;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.ReadCompatibility;
import io.deltacdf.connect.delta.table.TableAccess;
import io.deltacdf.connect.delta.table.TableSchema;
import java.util.Optional;

/**
 * The commit versions of a feed, in ascending order: lists the log ahead in runs of commits, plans
 * each version's change files (or the data files its changes are derived from) and opens them in
 * order. Nothing is read before the first file is asked for.
 */
public final class VersionPhase implements Phase<ChangePosition.InVersion> {

  private final FeedContext context;
  private final DeltaLog log;
  private final ChangeRules rules;

  /** The schema in force before the planned version; null until known (or at version 0). */
  private TableSchema schema;

  /** The row filter on the partitions of {@link #schema}; rebuilt when the schema changes. */
  private PartitionFilter partitions;

  private TableSchema partitionsSchema;

  /** Null until the first version is listed, unless a snapshot before it handed one over. */
  private CommitTimestamps timestamps;

  private final CommitListing commits;

  private VersionPlan plan;
  private long planTimestamp;

  /** The files the planned version's rows come from: its change files, or derived from. */
  private ChangeFiles planFiles = ChangeFiles.NONE;

  /** The planned version's derived changes, when they need a diff. */
  private DiffedVersion derivedVersion;

  private final VersionSources sources;

  /** Where the file opened last starts being read. */
  private ChangePosition.InVersion opened;

  /** Versions read from the start of one, their schema and timestamps found when first needed. */
  public VersionPhase(FeedContext context, DeltaLog log, ChangeRules rules) {
    this(context, log, rules, null, null);
  }

  /** The versions after a snapshot, which hands over its schema and timestamp chain. */
  public VersionPhase(
      FeedContext context,
      DeltaLog log,
      ChangeRules rules,
      TableSchema schema,
      CommitTimestamps timestamps) {
    this.context = context;
    this.log = log;
    this.rules = rules;
    this.schema = schema;
    this.timestamps = timestamps;
    this.sources = new VersionSources(context.table());
    this.commits = new CommitListing(context, log);
  }

  /**
   * Opens file {@code at.fileIndex()} of version {@code at.version()}, or moves on to the next
   * version after its last file, or finds the version not committed yet.
   */
  @Override
  public FeedStep open(ChangePosition.InVersion at) {
    if (plan == null || plan.version() != at.version()) {
      if (!planNextVersion(at.version())) {
        return FeedStep.CAUGHT_UP;
      }
    }
    if (at.fileIndex() >= planFiles.size()) {
      sources.finished();
      if (derivedVersion != null) {
        // Done with the version: its spill files go now, not when the next commit arrives; a
        // reader sent back into it diffs it again.
        derivedVersion.close();
      }
      plan.close(); // a streamed commit's log is read to its end: let it go
      return FeedStep.moveTo(ChangePosition.InVersion.start(at.version() + 1));
    }
    if (!partitions().test(planFiles.get(at.fileIndex()).partitionValues())) {
      // A file of a partition the row filter refuses: never opened.
      return FeedStep.moveTo(new ChangePosition.InVersion(at.version(), at.fileIndex() + 1, 0));
    }
    FileRowCursor cursor =
        derivedVersion != null
            ? derivedVersion.open(at.fileIndex(), at.nextRow())
            : new FileRowCursor(
                context, at.version(), planFiles.get(at.fileIndex()), schema, at.nextRow());
    opened = at;
    return FeedStep.read(new OpenedFile(cursor, schema, planTimestamp));
  }

  /**
   * After the version's last file the version is finished: a derived version's spill files go now,
   * not when the next commit is planned (the position after the last file is already the next
   * version's, so {@link #open} never sees it).
   */
  @Override
  public void fileFinished() {
    if (opened.fileIndex() + 1 < planFiles.size()) {
      return;
    }
    sources.finished();
    if (derivedVersion != null) {
      derivedVersion.close();
    }
  }

  @Override
  public ChangePosition.InVersion within(long nextRow) {
    return new ChangePosition.InVersion(opened.version(), opened.fileIndex(), nextRow);
  }

  @Override
  public ChangePosition afterFile() {
    if (opened.fileIndex() + 1 < planFiles.size()) {
      return new ChangePosition.InVersion(opened.version(), opened.fileIndex() + 1, 0);
    }
    return ChangePosition.InVersion.start(opened.version() + 1);
  }

  /** Whether versions after the planned one are listed already, so reading them costs no list. */
  public boolean moreListed() {
    return commits.moreListed();
  }

  /** The commitInfo operation of the planned version; null when it names none. */
  public String plannedOperation() {
    return plan == null ? null : plan.operation().orElse(null);
  }

  /** The versions read to their end so far, by where their change rows came from. */
  public VersionSourceCounts sourceCounts() {
    return sources.counts();
  }

  /** The newest version a listing found; -1 before the first. */
  public long latestListed() {
    return commits.latestListed();
  }

  @Override
  public void close() {
    closePlan();
    commits.close();
  }

  /** Plans {@code version}, or returns false when it has not been committed yet. */
  private boolean planNextVersion(long version) {
    boolean firstListing = !commits.listedBefore();
    DeltaLog.Commit commit = commits.next(version);
    if (commit == null) {
      return false;
    }
    if (firstListing) {
      startAt(version);
    }
    closePlan();
    try (CommitActions actions = commits.actionsOf(commit.version())) {
      plan =
          CommitPlanner.plan(
              context.table(),
              actions,
              CommitRanges.reader(context, log, commit.version()),
              rules.planMemoryFiles(),
              rules.diffSpill());
    } catch (DeltaFeedException e) {
      throw e;
    } catch (Exception e) {
      throw KernelErrors.translate(
          context.table(), "version " + commit.version(), log.commitFile(commit.version()), e);
    }
    if (plan.becomesCatalogManaged() && context.catalogCommits().isEmpty()) {
      throw TableAccess.catalogManaged(context.table(), "version " + version);
    }
    planTimestamp = timestamps.next(commit, plan.inCommitTimestamp());
    if (plan.newMetadata().isPresent()) {
      schema = checkedReplacement(version, rules.schemaOf(plan.newMetadata().get()));
    }
    if (schema == null) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          "Table " + context.table() + " version " + version + " has no metadata");
    }
    boolean fromChangeData = rules.readsChangeData(schema);
    if (fromChangeData) {
      TableAccess.requireChangeDataFeed(context, schema, version);
    }
    planFiles = fromChangeData ? plan.files() : plan.dataFiles();
    if (fromChangeData) {
      sources.used(version, VersionSources.Source.CDF);
    }
    derivedVersion = fromChangeData ? null : diffedVersion(version);
    return true;
  }

  /**
   * The diff a version read from its data files needs (none when it only adds or only removes
   * rows): by row id where row tracking gives every file's rows one, else by row values. Logs the
   * versions row tracking was wanted for but cannot pair.
   */
  private DiffedVersion diffedVersion(long version) {
    Optional<RowTracking> tracking =
        rules.pairsByRowId() ? RowTracking.of(schema.metadata()) : Optional.empty();
    if (!plan.derivationNeedsDiff()) {
      // Rows only enter or only leave: each is an insert or a delete, whichever pairs them.
      sources.used(
          version,
          tracking.isPresent()
              ? VersionSources.Source.ROW_TRACKING
              : VersionSources.Source.DERIVED);
      return null;
    }
    if (tracking.isPresent() && plan.restores()) {
      // Spark's feed (no cdc files) gives a RESTORE's removed and added rows as they are; row
      // ids would pair a restored row with the version it replaces.
      sources.used(version, VersionSources.Source.ROW_TRACKING);
      return null;
    }
    if (tracking.isPresent() && RowTracking.covers(planFiles)) {
      sources.used(version, VersionSources.Source.ROW_TRACKING);
      return new RowTrackingVersion(
          context, version, planFiles, schema, tracking.get(), rules.diffSpill());
    }
    if (rules.pairsByRowId()) {
      sources.fellBack(version, tracking.isPresent());
    } else {
      sources.used(version, VersionSources.Source.DERIVED);
    }
    return new DerivedVersion(context, version, planFiles, schema, rules, partitions());
  }

  /** Finds what reading from {@code version} needs and no snapshot handed over. */
  private void startAt(long version) {
    if (timestamps == null) {
      schema = version == 0 ? null : schemaBefore(version);
      timestamps = CommitTimestamps.startingAt(log, version);
    }
  }

  private PartitionFilter partitions() {
    if (partitionsSchema != schema) {
      partitions = PartitionFilter.of(rules.rowFilter(), schema, context.table());
      partitionsSchema = schema;
    }
    return partitions;
  }

  /** The schema in force just before {@code version}, i.e. at {@code version - 1}. */
  private TableSchema schemaBefore(long version) {
    Snapshot snapshot;
    try {
      snapshot = TableAccess.snapshotAt(context, version - 1);
    } catch (DeltaFeedException e) {
      if (e.kind() != DeltaFeedException.Kind.HISTORY_MISSING) {
        throw e;
      }
      // The log was cleaned up to a checkpoint at `version`: its snapshot includes the version's
      // own metadata, which the version's commit re-applies anyway.
      snapshot = TableAccess.snapshotAt(context, version);
    }
    return rules.schemaOf(TableMetadata.of(snapshot));
  }

  /**
   * A version that replaces the table (CREATE OR REPLACE TABLE, REPLACE TABLE ... AS SELECT give it
   * a new table id) deletes the old table's rows by removing its files, which are read with the new
   * schema, as Spark's table_changes reads them: the feed goes on when that schema can read them,
   * and fails where Spark's does.
   */
  private TableSchema checkedReplacement(long version, TableSchema next) {
    if (schema == null || schema.tableId().equals(next.tableId())) {
      return next;
    }
    ReadCompatibility.conflict(schema.metadata(), next.metadata())
        .ifPresent(
            conflict -> {
              throw new DeltaFeedException(
                  DeltaFeedException.Kind.TABLE_REPLACED,
                  "Table "
                      + context.table()
                      + " was replaced at version "
                      + version
                      + " (CREATE OR REPLACE TABLE or REPLACE TABLE gave it table id "
                      + next.tableId()
                      + ") with a schema its earlier rows cannot be read with: "
                      + conflict
                      + ". Spark's table_changes fails across this version too. Restart the"
                      + " connector from a snapshot of the new table (DELETE its offsets with"
                      + " start.mode=snapshot, or set on.history.missing=resnapshot)");
            });
    return next;
  }

  /**
   * Deletes the spill files of the derived version before the feed leaves it, and stops reading the
   * files of a streamed commit, deleting its temp files.
   */
  private void closePlan() {
    if (derivedVersion != null) {
      derivedVersion.close();
      derivedVersion = null;
    }
    if (plan != null) {
      plan.close();
    }
  }
}
