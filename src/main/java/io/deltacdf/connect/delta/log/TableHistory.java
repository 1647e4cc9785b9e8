package io.deltacdf.connect.delta.log;

import io.delta.kernel.CommitActions;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.TableAccess;
import io.deltacdf.connect.delta.table.TableSchema;
import java.util.EnumSet;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * What a table's log still holds: its latest and oldest readable versions, the metadata each commit
 * set, and from where its change data feed can be read.
 */
public final class TableHistory {

  private final FeedContext context;
  private final DeltaLog log;
  private final ChangeRules rules;

  public TableHistory(FeedContext context, DeltaLog log, ChangeRules rules) {
    this.context = context;
    this.log = log;
    this.rules = rules;
  }

  /** The table's newest committed version. */
  public long latestVersion() {
    return TableAccess.latestSnapshot(context).getVersion();
  }

  /** Fails unless the change data feed is on at {@code version}, naming where it is on. */
  public void requireReadable(TableMetadata metadata, long version, long latestVersion) {
    if (rules.source() != ChangeSource.CDF || TableSchema.of(metadata).changeDataFeedEnabled()) {
      return;
    }
    throw TableAccess.changeDataFeedDisabled(
        context, version, firstEnabledAfter(version, latestVersion));
  }

  /** Fails unless the change data feed is on at {@code version}, where a snapshot is taken. */
  public void requireReadableForSnapshot(TableMetadata metadata, long version) {
    if (rules.source() != ChangeSource.CDF || TableSchema.of(metadata).changeDataFeedEnabled()) {
      return;
    }
    throw TableAccess.changeDataFeedDisabledAtSnapshot(context, version);
  }

  /** The first version after {@code version} from which the feed stays enabled to the latest. */
  public OptionalLong firstEnabledAfter(long version, long latestVersion) {
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
  public void forEachMetadata(long from, long to, BiConsumer<Long, TableMetadata> action) {
    try {
      try (CloseableIterator<CommitActions> commits =
          CommitRanges.open(context, from, to, EnumSet.of(LogAction.Kind.METADATA))) {
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

  public long earliestReadable(long latestVersion) {
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

  /**
   * Whether {@code deltaTableId} is the Delta table id of the metadata at the oldest version that
   * can be rebuilt, or of any metadata a later commit up to {@code latestVersion} set.
   */
  public boolean logsTableId(String deltaTableId, long latestVersion) {
    Snapshot oldest = oldestSnapshot(latestVersion);
    boolean[] held = {TableMetadata.of(oldest).id().equals(deltaTableId)};
    if (!held[0] && oldest.getVersion() < latestVersion) {
      forEachMetadata(
          oldest.getVersion() + 1,
          latestVersion,
          (version, metadata) -> held[0] |= metadata.id().equals(deltaTableId));
    }
    return held[0];
  }

  /** The table at the oldest version its log can still rebuild. */
  public Snapshot oldestSnapshot(long latestVersion) {
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
}
