package io.deltacdf.connect.delta;

import io.deltacdf.connect.delta.kernel.DeletionVector;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.delta.kernel.CommitActions;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides which files carry a version's changes, following Spark's CDF rules: the version's cdc
 * files when it has any; nothing for a MERGE that changed no rows; otherwise the added and removed
 * data files with {@code dataChange=true}, paired by path when a deletion vector was updated.
 */
final class CommitPlanner {

  /** The actions a commit is read for. */
  static final Set<LogAction.Kind> ACTIONS = EnumSet.allOf(LogAction.Kind.class);

  private CommitPlanner() {}

  static VersionPlan plan(String table, CommitActions commit) {
    Collector collector = new Collector(table, commit.getVersion());
    try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
      while (batches.hasNext()) {
        collector.collect(batches.next());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return collector.toPlan();
  }

  private record DataAction(
      String path, Map<String, String> partitionValues, long size, DeletionVector dv) {}

  /** Accumulates one commit's actions, remembering the order paths first appear in. */
  private static final class Collector {
    private final String table;
    private final long version;
    private final List<ChangeFile> cdcFiles = new ArrayList<>();
    private final Map<String, DataAction> added = new LinkedHashMap<>();
    private final Map<String, DataAction> removed = new LinkedHashMap<>();
    private final Map<String, Boolean> pathOrder = new LinkedHashMap<>();
    private TableMetadata metadata;
    private LogAction.CommitInfo commitInfo;

    Collector(String table, long version) {
      this.table = table;
      this.version = version;
    }

    void collect(ColumnarBatch batch) {
      LogActions actions = LogActions.of(batch);
      for (int row = 0; row < actions.size(); row++) {
        LogAction action = actions.at(row);
        if (action instanceof LogAction.FileAction file) {
          collectFile(file);
        } else if (action instanceof LogAction.MetadataAction changed) {
          metadata = changed.metadata();
        } else if (action instanceof LogAction.CommitInfo info) {
          commitInfo = info;
        }
      }
    }

    private void collectFile(LogAction.FileAction file) {
      switch (file.kind()) {
        case CDC -> cdcFiles.add(ChangeFile.cdc(file.path(), file.partitionValues(), file.size()));
        case ADD -> collectData(added, file);
        case REMOVE -> {
          requireExtendedMetadata(file);
          collectData(removed, file);
        }
        default -> throw new IllegalStateException("Not a file action: " + file.kind());
      }
    }

    private void collectData(Map<String, DataAction> actions, LogAction.FileAction file) {
      if (!file.dataChange()) {
        return;
      }
      actions.put(
          file.path(),
          new DataAction(file.path(), file.partitionValues(), file.size(), file.deletionVector()));
      pathOrder.putIfAbsent(file.path(), Boolean.TRUE);
    }

    private void requireExtendedMetadata(LogAction.FileAction remove) {
      if (remove.dataChange() && !remove.extendedFileMetadata()) {
        throw new DeltaFeedException(
            DeltaFeedException.Kind.UNSUPPORTED_TABLE,
            "Table "
                + table
                + " version "
                + version
                + " removes file "
                + remove.path()
                + " without extendedFileMetadata, so its deleted rows cannot be reconstructed;"
                + " the table was written by an old Delta writer: start after this version");
      }
    }

    VersionPlan toPlan() {
      List<ChangeFile> dataFiles = isMergeWithoutChanges() ? List.of() : dataFiles();
      return new VersionPlan(
          version,
          cdcFiles.isEmpty() ? dataFiles : cdcFiles,
          dataFiles,
          Optional.ofNullable(metadata).map(TableSchema::of),
          Optional.ofNullable(commitInfo).flatMap(LogAction.CommitInfo::inCommitTimestamp));
    }

    /** The added and removed data files, by first appearance of their path in the log. */
    private List<ChangeFile> dataFiles() {
      List<ChangeFile> files = new ArrayList<>(pathOrder.size());
      for (String path : pathOrder.keySet()) {
        DataAction add = added.get(path);
        DataAction remove = removed.get(path);
        if (add != null && remove != null) {
          files.add(
              new ChangeFile(
                  ChangeFile.Kind.DV_UPDATE,
                  path,
                  add.partitionValues(),
                  add.size(),
                  add.dv(),
                  remove.dv()));
        } else if (add != null) {
          files.add(
              new ChangeFile(
                  ChangeFile.Kind.ADDED, path, add.partitionValues(), add.size(), add.dv(), null));
        } else {
          files.add(
              new ChangeFile(
                  ChangeFile.Kind.REMOVED,
                  path,
                  remove.partitionValues(),
                  remove.size(),
                  null,
                  remove.dv()));
        }
      }
      return files;
    }

    /** Spark emits nothing for a MERGE whose metrics say it inserted, updated and deleted 0 rows. */
    private boolean isMergeWithoutChanges() {
      if (commitInfo == null || !"MERGE".equals(commitInfo.operation().orElse(null))) {
        return false;
      }
      Map<String, String> metrics = commitInfo.operationMetrics();
      return "0".equals(metrics.get("numTargetRowsInserted"))
          && "0".equals(metrics.get("numTargetRowsUpdated"))
          && "0".equals(metrics.get("numTargetRowsDeleted"));
    }
  }
}
