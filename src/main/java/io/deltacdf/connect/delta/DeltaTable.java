package io.deltacdf.connect.delta;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.LoggedSchema;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BiConsumer;
import org.apache.hadoop.conf.Configuration;

/**
 * A Delta table whose change data feed can be read: resolves where a feed starts and opens feeds.
 * The only entry point into the {@code delta} package.
 */
public final class DeltaTable implements AutoCloseable {

  /** Snapshot files handed out per scan of the snapshot (see {@link SnapshotFiles}). */
  static final int DEFAULT_SNAPSHOT_WINDOW = 10_000;

  private final FeedContext context;
  private final DeltaLog log;
  private final int snapshotWindow;
  private final TableFileIO fileIO;
  private final ChangeRules rules;

  private DeltaTable(
      FeedContext context, int snapshotWindow, TableFileIO fileIO, ChangeRules rules) {
    this.context = context;
    this.log = new DeltaLog(context);
    this.snapshotWindow = snapshotWindow;
    this.fileIO = fileIO;
    this.rules = rules;
  }

  /**
   * @param uri the table's root: a plain path or a {@code file:}, {@code s3a:}, {@code abfs(s):}
   *     or {@code gs:} URI
   * @param hadoopConfiguration file system settings passed to Hadoop
   * @param filesOutsideTableAllowed whether the log may reference files outside the table's
   *     folder (shallow clones do); otherwise such references fail
   */
  public static DeltaTable open(
      String uri, Map<String, String> hadoopConfiguration, boolean filesOutsideTableAllowed) {
    Configuration configuration = new Configuration();
    hadoopConfiguration.forEach(configuration::set);
    TableFileIO fileIO = new TableFileIO(configuration);
    Engine engine = DefaultEngine.create(fileIO);
    String root;
    try {
      root = engine.getFileSystemClient().resolvePath(uri);
    } catch (IOException | RuntimeException e) {
      closeQuietly(fileIO);
      throw KernelErrors.translate(uri, "its root path", e);
    }
    return new DeltaTable(
        new FeedContext(engine, uri, root, filesOutsideTableAllowed),
        DEFAULT_SNAPSHOT_WINDOW,
        fileIO,
        ChangeRules.CDF_ONLY);
  }

  /** The same table, handing out snapshot files in windows of {@code files}. */
  DeltaTable withSnapshotWindow(int files) {
    return new DeltaTable(context, files, fileIO, rules);
  }

  /**
   * The same table, its changes read from {@code source}; {@code keyColumns} (possibly none) let
   * derived changes pair a delete and an insert of one key into an update.
   */
  public DeltaTable withChangeSource(ChangeSource source, List<String> keyColumns) {
    return new DeltaTable(context, snapshotWindow, fileIO, new ChangeRules(source, keyColumns));
  }

  /** Closes the table's file system connections; feeds opened from it stop working. */
  @Override
  public void close() {
    closeQuietly(fileIO);
  }

  private static void closeQuietly(TableFileIO fileIO) {
    try {
      fileIO.close();
    } catch (IOException e) {
      // Closing only releases connections and threads: nothing to recover.
    }
  }

  private long latestVersion() {
    return TableAccess.latestSnapshot(context).getVersion();
  }

  /**
   * The schema rows at {@code start} are read with and the latest one, oldest first; only the
   * latest when the start is at or after the latest version, or its history is gone (reading the
   * feed reports that in its own words). Cheap: two snapshots, no reading of the log between.
   */
  public List<LoggedSchema> schemasAtStartAndLatest(ChangePosition start) {
    Snapshot latest = TableAccess.latestSnapshot(context);
    if (start.version() >= latest.getVersion()) {
      return List.of(schemaOf(latest));
    }
    try {
      return List.of(schemaOf(TableAccess.snapshotAt(context, start.version())), schemaOf(latest));
    } catch (DeltaFeedException e) {
      if (e.kind() != DeltaFeedException.Kind.HISTORY_MISSING) {
        throw e;
      }
      return List.of(schemaOf(latest));
    }
  }

  /**
   * Every schema the log still holds, oldest first: the one at the oldest version that can be
   * rebuilt and each one a later commit set. Reads the whole log.
   */
  public List<LoggedSchema> loggedSchemas() {
    long latestVersion = latestVersion();
    Snapshot oldest = oldestSnapshot(latestVersion);
    List<LoggedSchema> schemas = new ArrayList<>();
    schemas.add(schemaOf(oldest));
    if (oldest.getVersion() < latestVersion) {
      forEachMetadata(
          oldest.getVersion() + 1,
          latestVersion,
          (version, metadata) ->
              schemas.add(new LoggedSchema(version, KernelTypes.toStruct(metadata.schema()))));
    }
    return schemas;
  }

  private static LoggedSchema schemaOf(Snapshot snapshot) {
    return new LoggedSchema(snapshot.getVersion(), KernelTypes.toStruct(snapshot.getSchema()));
  }

  /** Opens a feed that yields every change after {@code position}. */
  public DeltaChangeFeed openFeed(ChangePosition position) {
    return new DeltaChangeFeed(context, position, snapshotWindow, rules);
  }

  /**
   * Checks a position Connect stored for this table, which an operator may have altered through
   * the REST API, before a feed resumes there. A version after the latest + 1 (the next commit)
   * fails as {@link DeltaFeedException.Kind#INVALID_START}, never as missing history, so that it
   * is never answered with a re-snapshot; a version whose history was cleaned up fails as {@link
   * DeltaFeedException.Kind#HISTORY_MISSING}. Both messages name the table and {@code offset}, the
   * stored offset as the REST API shows it.
   */
  public void checkStored(ChangePosition stored, String offset) {
    if (commitIsInTheLog(stored)) {
      return;
    }
    long latestVersion = latestVersion();
    long version = stored.version();
    boolean inSnapshot = stored instanceof ChangePosition.InSnapshot;
    long newest = inSnapshot ? latestVersion : latestVersion + 1;
    if (version > newest) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.INVALID_START,
          storedOffsetAt(offset, version)
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
        storedOffsetAt(offset, version)
            + ", whose history is gone from the log (cleaned up after its retention period); the"
            + " earliest version that can be read is "
            + earliestReadable(latestVersion)
            + ". Move the offset there or later (PATCH /connectors/<name>/offsets), or set"
            + " on.history.missing=resnapshot to start over from a snapshot");
  }

  private String storedOffsetAt(String offset, long version) {
    return "The stored offset " + offset + " of table " + context.table() + " is at version "
        + version;
  }

  /**
   * Whether a version offset is plainly valid by a listing alone: its commit, or the one before
   * it (then it is the next commit), is in the log. Spares a restart the latest snapshot's load,
   * which replays the log since its last checkpoint.
   */
  private boolean commitIsInTheLog(ChangePosition stored) {
    if (!(stored instanceof ChangePosition.InVersion)) {
      return false;
    }
    long version = stored.version();
    return !log.commitsFrom(version, 1).isEmpty()
        || (version > 0 && !log.commitsFrom(version - 1, 1).isEmpty());
  }

  /** Whether the log still holds what a feed resuming at {@code position} reads first. */
  private boolean historyReaches(ChangePosition position) {
    if (position instanceof ChangePosition.InVersion) {
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
   * Where a feed started with {@code start} begins, after checking that the change data feed can
   * be read from there.
   */
  public ChangePosition resolveStart(StartSpec start) {
    Snapshot latest = TableAccess.latestSnapshot(context);
    long latestVersion = latest.getVersion();
    if (start instanceof StartSpec.Snapshot) {
      requireReadable(TableMetadata.of(latest), latestVersion, latestVersion);
      return ChangePosition.InSnapshot.start(latestVersion);
    }
    if (start instanceof StartSpec.Latest) {
      requireReadable(TableMetadata.of(latest), latestVersion, latestVersion);
      return ChangePosition.InVersion.start(latestVersion + 1);
    }
    if (start instanceof StartSpec.AtVersion at) {
      return ChangePosition.InVersion.start(checkedStart(at.version(), latestVersion));
    }
    if (start instanceof StartSpec.AtTimestamp at) {
      return ChangePosition.InVersion.start(
          checkedStart(versionAtOrAfter(at.epochMillis(), latest), latestVersion));
    }
    return ChangePosition.InVersion.start(earliestReadable(latestVersion));
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
              + earliestReadable(latestVersion)
              + ". Start there, or from a snapshot",
          e);
    }
    requireReadable(TableMetadata.of(snapshot), version, latestVersion);
    return version;
  }

  /** Fails unless the change data feed is on at {@code version}, naming where it is on. */
  private void requireReadable(TableMetadata metadata, long version, long latestVersion) {
    if (rules.source() != ChangeSource.CDF || TableSchema.of(metadata).changeDataFeedEnabled()) {
      return;
    }
    throw TableAccess.changeDataFeedDisabled(
        context, version, firstEnabledAfter(version, latestVersion));
  }

  /** The first version after {@code version} from which the feed stays enabled to the latest. */
  private OptionalLong firstEnabledAfter(long version, long latestVersion) {
    if (version >= latestVersion) {
      return OptionalLong.empty();
    }
    OptionalLong[] candidate = {OptionalLong.empty()};
    forEachMetadata(
        version + 1,
        latestVersion,
        (commitVersion, metadata) -> {
          if (!TableSchema.of(metadata).changeDataFeedEnabled()) {
            candidate[0] = OptionalLong.empty();
          } else if (candidate[0].isEmpty()) {
            candidate[0] = OptionalLong.of(commitVersion);
          }
        });
    return candidate[0];
  }

  /** Hands each metadata action of versions {@code from} to {@code to}, in log order. */
  private void forEachMetadata(long from, long to, BiConsumer<Long, TableMetadata> action) {
    try {
      CommitRange range =
          TableManager.loadCommitRange(context.tableRoot(), CommitBoundary.atVersion(from))
              .withEndBoundary(CommitBoundary.atVersion(to))
              .build(context.engine());
      try (CloseableIterator<CommitActions> commits =
          LogActions.commits(range, context.engine(), EnumSet.of(LogAction.Kind.METADATA))) {
        while (commits.hasNext()) {
          try (CommitActions commit = commits.next();
              CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
            while (batches.hasNext()) {
              LogActions actions = LogActions.of(batches.next());
              for (int row = 0; row < actions.size(); row++) {
                if (actions.at(row) instanceof LogAction.MetadataAction changed) {
                  action.accept(commit.getVersion(), changed.metadata());
                }
              }
            }
          }
        }
      }
    } catch (Exception e) {
      throw KernelErrors.translate(context.table(), "versions " + from + " to " + to, e);
    }
  }

  private long earliestReadable(long latestVersion) {
    Snapshot snapshot = oldestSnapshot(latestVersion);
    long version = snapshot.getVersion();
    if (rules.source() != ChangeSource.CDF
        || TableSchema.of(TableMetadata.of(snapshot)).changeDataFeedEnabled()) {
      return version;
    }
    OptionalLong enabled = firstEnabledAfter(version, latestVersion);
    if (enabled.isEmpty()) {
      requireReadable(TableMetadata.of(snapshot), version, latestVersion);
    }
    return enabled.getAsLong();
  }

  /** The table at the oldest version its log can still rebuild. */
  private Snapshot oldestSnapshot(long latestVersion) {
    long earliest = log.earliestCommitVersion();
    if (earliest < 0) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.TABLE_NOT_FOUND,
          "Table " + context.table() + " has no commits in its _delta_log folder");
    }
    Snapshot snapshot = null;
    for (long version = earliest; version <= latestVersion && snapshot == null; version++) {
      // Only a version with a checkpoint at or right before it can be rebuilt after cleanup.
      try {
        snapshot = TableAccess.snapshotAt(context, version);
      } catch (DeltaFeedException e) {
        if (e.kind() != DeltaFeedException.Kind.HISTORY_MISSING) {
          throw e;
        }
      }
    }
    if (snapshot == null) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.HISTORY_MISSING,
          "Table " + context.table() + " has no version that can be rebuilt from its log");
    }
    return snapshot;
  }

  private long versionAtOrAfter(long epochMillis, Snapshot latest) {
    try {
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
