package io.deltacdf.connect.delta;

import io.delta.kernel.CommitActions;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.actions.AddCDCFile;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.CommitInfo;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.util.VectorUtils;
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

  static final Set<DeltaAction> ACTIONS =
      EnumSet.of(
          DeltaAction.ADD,
          DeltaAction.REMOVE,
          DeltaAction.CDC,
          DeltaAction.METADATA,
          DeltaAction.COMMITINFO);

  private static final int ADD_PATH = AddFile.FULL_SCHEMA.indexOf("path");
  private static final int ADD_PARTITIONS = AddFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int ADD_SIZE = AddFile.FULL_SCHEMA.indexOf("size");
  private static final int ADD_DATA_CHANGE = AddFile.FULL_SCHEMA.indexOf("dataChange");
  private static final int ADD_DV = AddFile.FULL_SCHEMA.indexOf("deletionVector");
  private static final int REMOVE_PATH = RemoveFile.FULL_SCHEMA.indexOf("path");
  private static final int REMOVE_PARTITIONS = RemoveFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int REMOVE_SIZE = RemoveFile.FULL_SCHEMA.indexOf("size");
  private static final int REMOVE_DATA_CHANGE = RemoveFile.FULL_SCHEMA.indexOf("dataChange");
  private static final int REMOVE_EXTENDED = RemoveFile.FULL_SCHEMA.indexOf("extendedFileMetadata");
  private static final int REMOVE_DV = RemoveFile.FULL_SCHEMA.indexOf("deletionVector");
  private static final int CDC_PATH = AddCDCFile.FULL_SCHEMA.indexOf("path");
  private static final int CDC_PARTITIONS = AddCDCFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int CDC_SIZE = AddCDCFile.FULL_SCHEMA.indexOf("size");

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
      String path, Map<String, String> partitionValues, long size, DeletionVectorDescriptor dv) {}

  /** Accumulates one commit's actions, remembering the order paths first appear in. */
  private static final class Collector {
    private final String table;
    private final long version;
    private final List<ChangeFile> cdcFiles = new ArrayList<>();
    private final Map<String, DataAction> added = new LinkedHashMap<>();
    private final Map<String, DataAction> removed = new LinkedHashMap<>();
    private final Map<String, Boolean> pathOrder = new LinkedHashMap<>();
    private Metadata metadata;
    private CommitInfo commitInfo;

    Collector(String table, long version) {
      this.table = table;
      this.version = version;
    }

    void collect(ColumnarBatch batch) {
      ColumnVector adds = column(batch, DeltaAction.ADD);
      ColumnVector removes = column(batch, DeltaAction.REMOVE);
      ColumnVector cdcs = column(batch, DeltaAction.CDC);
      ColumnVector metadatas = column(batch, DeltaAction.METADATA);
      ColumnVector commitInfos = column(batch, DeltaAction.COMMITINFO);
      for (int row = 0; row < batch.getSize(); row++) {
        if (!adds.isNullAt(row)) {
          collectAdd(adds, row);
        } else if (!removes.isNullAt(row)) {
          collectRemove(removes, row);
        } else if (!cdcs.isNullAt(row)) {
          cdcFiles.add(
              ChangeFile.cdc(
                  cdcs.getChild(CDC_PATH).getString(row),
                  partitionValues(cdcs.getChild(CDC_PARTITIONS), row),
                  cdcs.getChild(CDC_SIZE).getLong(row)));
        } else if (!metadatas.isNullAt(row)) {
          metadata = Metadata.fromColumnVector(metadatas, row);
        } else if (!commitInfos.isNullAt(row)) {
          commitInfo = CommitInfo.fromColumnVector(commitInfos, row);
        }
      }
    }

    private void collectAdd(ColumnVector adds, int row) {
      if (!adds.getChild(ADD_DATA_CHANGE).getBoolean(row)) {
        return;
      }
      String path = adds.getChild(ADD_PATH).getString(row);
      added.put(
          path,
          new DataAction(
              path,
              partitionValues(adds.getChild(ADD_PARTITIONS), row),
              adds.getChild(ADD_SIZE).getLong(row),
              DeletionVectorDescriptor.fromColumnVector(adds.getChild(ADD_DV), row)));
      pathOrder.putIfAbsent(path, Boolean.TRUE);
    }

    private void collectRemove(ColumnVector removes, int row) {
      if (!removes.getChild(REMOVE_DATA_CHANGE).getBoolean(row)) {
        return;
      }
      String path = removes.getChild(REMOVE_PATH).getString(row);
      ColumnVector extended = removes.getChild(REMOVE_EXTENDED);
      if (extended.isNullAt(row) || !extended.getBoolean(row)) {
        throw new DeltaFeedException(
            DeltaFeedException.Kind.UNSUPPORTED_TABLE,
            "Table "
                + table
                + " version "
                + version
                + " removes file "
                + path
                + " without extendedFileMetadata, so its deleted rows cannot be reconstructed;"
                + " the table was written by an old Delta writer: start after this version");
      }
      ColumnVector sizes = removes.getChild(REMOVE_SIZE);
      removed.put(
          path,
          new DataAction(
              path,
              partitionValues(removes.getChild(REMOVE_PARTITIONS), row),
              sizes.isNullAt(row) ? -1 : sizes.getLong(row),
              DeletionVectorDescriptor.fromColumnVector(removes.getChild(REMOVE_DV), row)));
      pathOrder.putIfAbsent(path, Boolean.TRUE);
    }

    VersionPlan toPlan() {
      List<ChangeFile> dataFiles = isMergeWithoutChanges() ? List.of() : dataFiles();
      return new VersionPlan(
          version,
          cdcFiles.isEmpty() ? dataFiles : cdcFiles,
          dataFiles,
          Optional.ofNullable(metadata).map(TableSchema::of),
          Optional.ofNullable(commitInfo).flatMap(CommitInfo::getInCommitTimestamp));
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
      if (commitInfo == null || !"MERGE".equals(commitInfo.getOperation().orElse(null))) {
        return false;
      }
      Map<String, String> metrics = commitInfo.getOperationMetrics();
      return "0".equals(metrics.get("numTargetRowsInserted"))
          && "0".equals(metrics.get("numTargetRowsUpdated"))
          && "0".equals(metrics.get("numTargetRowsDeleted"));
    }
  }

  private static ColumnVector column(ColumnarBatch batch, DeltaAction action) {
    return batch.getColumnVector(batch.getSchema().indexOf(action.colName));
  }

  private static Map<String, String> partitionValues(ColumnVector vector, int row) {
    if (vector.isNullAt(row)) {
      return Map.of();
    }
    return VectorUtils.toJavaMap(vector.getMap(row));
  }
}
