package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.actions.AddCDCFile;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.tablefeatures.TableFeatures;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterator;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** Reads the actions of commit files as {@link LogAction}s. */
public final class LogActions {

  private static final int ADD_PATH = AddFile.FULL_SCHEMA.indexOf("path");
  private static final int ADD_PARTITIONS = AddFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int ADD_SIZE = AddFile.FULL_SCHEMA.indexOf("size");
  private static final int ADD_DATA_CHANGE = AddFile.FULL_SCHEMA.indexOf("dataChange");
  private static final int ADD_DV = AddFile.FULL_SCHEMA.indexOf("deletionVector");
  private static final int ADD_BASE_ROW_ID = AddFile.FULL_SCHEMA.indexOf("baseRowId");
  private static final int ADD_COMMIT_VERSION =
      AddFile.FULL_SCHEMA.indexOf("defaultRowCommitVersion");
  private static final int REMOVE_PATH = RemoveFile.FULL_SCHEMA.indexOf("path");
  private static final int REMOVE_PARTITIONS = RemoveFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int REMOVE_SIZE = RemoveFile.FULL_SCHEMA.indexOf("size");
  private static final int REMOVE_DATA_CHANGE = RemoveFile.FULL_SCHEMA.indexOf("dataChange");
  private static final int REMOVE_EXTENDED = RemoveFile.FULL_SCHEMA.indexOf("extendedFileMetadata");
  private static final int REMOVE_DV = RemoveFile.FULL_SCHEMA.indexOf("deletionVector");
  private static final int REMOVE_BASE_ROW_ID = RemoveFile.FULL_SCHEMA.indexOf("baseRowId");
  private static final int REMOVE_COMMIT_VERSION =
      RemoveFile.FULL_SCHEMA.indexOf("defaultRowCommitVersion");
  private static final int CDC_PATH = AddCDCFile.FULL_SCHEMA.indexOf("path");
  private static final int CDC_PARTITIONS = AddCDCFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int CDC_SIZE = AddCDCFile.FULL_SCHEMA.indexOf("size");

  private final ColumnVector adds;
  private final ColumnVector removes;
  private final ColumnVector cdcs;
  private final ColumnVector metadatas;
  private final ColumnVector protocols;
  private final ColumnVector commitInfos;
  private final int size;

  private LogActions(ColumnarBatch batch) {
    this.adds = column(batch, DeltaAction.ADD);
    this.removes = column(batch, DeltaAction.REMOVE);
    this.cdcs = column(batch, DeltaAction.CDC);
    this.metadatas = column(batch, DeltaAction.METADATA);
    this.protocols = column(batch, DeltaAction.PROTOCOL);
    this.commitInfos = column(batch, DeltaAction.COMMITINFO);
    this.size = batch.getSize();
  }

  /** The commits of {@code range}, each read for the actions of {@code kinds} only. */
  public static CloseableIterator<CommitActions> commits(
      CommitRange range, Engine engine, Set<LogAction.Kind> kinds) {
    Set<DeltaAction> actions = EnumSet.noneOf(DeltaAction.class);
    for (LogAction.Kind kind : kinds) {
      actions.add(
          switch (kind) {
            case ADD -> DeltaAction.ADD;
            case REMOVE -> DeltaAction.REMOVE;
            case CDC -> DeltaAction.CDC;
            case METADATA -> DeltaAction.METADATA;
            case PROTOCOL -> DeltaAction.PROTOCOL;
            case COMMIT_INFO -> DeltaAction.COMMITINFO;
          });
    }
    return range.getCommitActions(engine, actions);
  }

  /** The actions of one batch that {@link CommitActions#getActions()} returned. */
  public static LogActions of(ColumnarBatch batch) {
    return new LogActions(batch);
  }

  public int size() {
    return size;
  }

  /** The action in row {@code row}, or null when the row holds none that was asked for. */
  public LogAction at(int row) {
    if (isSet(adds, row)) {
      return new LogAction.FileAction(
          LogAction.Kind.ADD,
          adds.getChild(ADD_PATH).getString(row),
          partitionValues(adds.getChild(ADD_PARTITIONS), row),
          adds.getChild(ADD_SIZE).getLong(row),
          adds.getChild(ADD_DATA_CHANGE).getBoolean(row),
          true,
          DeletionVector.at(adds.getChild(ADD_DV), row),
          FileRowIds.at(adds.getChild(ADD_BASE_ROW_ID), adds.getChild(ADD_COMMIT_VERSION), row));
    }
    if (isSet(removes, row)) {
      ColumnVector sizes = removes.getChild(REMOVE_SIZE);
      ColumnVector extended = removes.getChild(REMOVE_EXTENDED);
      return new LogAction.FileAction(
          LogAction.Kind.REMOVE,
          removes.getChild(REMOVE_PATH).getString(row),
          partitionValues(removes.getChild(REMOVE_PARTITIONS), row),
          sizes.isNullAt(row) ? -1 : sizes.getLong(row),
          removes.getChild(REMOVE_DATA_CHANGE).getBoolean(row),
          !extended.isNullAt(row) && extended.getBoolean(row),
          DeletionVector.at(removes.getChild(REMOVE_DV), row),
          FileRowIds.at(
              removes.getChild(REMOVE_BASE_ROW_ID), removes.getChild(REMOVE_COMMIT_VERSION), row));
    }
    if (isSet(cdcs, row)) {
      return new LogAction.FileAction(
          LogAction.Kind.CDC,
          cdcs.getChild(CDC_PATH).getString(row),
          partitionValues(cdcs.getChild(CDC_PARTITIONS), row),
          cdcs.getChild(CDC_SIZE).getLong(row),
          true,
          true,
          null,
          null);
    }
    if (isSet(metadatas, row)) {
      return new LogAction.MetadataAction(
          new TableMetadata(Metadata.fromColumnVector(metadatas, row)));
    }
    if (isSet(protocols, row)) {
      return new LogAction.ProtocolAction(
          TableFeatures.isCatalogManagedSupported(Protocol.fromColumnVector(protocols, row)));
    }
    if (isSet(commitInfos, row)) {
      io.delta.kernel.internal.actions.CommitInfo info =
          io.delta.kernel.internal.actions.CommitInfo.fromColumnVector(commitInfos, row);
      return new LogAction.CommitInfo(
          info.getOperation(), info.getOperationMetrics(), info.getInCommitTimestamp());
    }
    return null;
  }

  /** Partition values keyed by physical column name, none when the column is null. */
  static Map<String, String> partitionValues(ColumnVector vector, int row) {
    if (vector.isNullAt(row)) {
      return Map.of();
    }
    return VectorUtils.toJavaMap(vector.getMap(row));
  }

  private static boolean isSet(ColumnVector vector, int row) {
    return vector != null && !vector.isNullAt(row);
  }

  /** The batch's column of {@code action}, or null when the batch was not read for it. */
  private static ColumnVector column(ColumnarBatch batch, DeltaAction action) {
    int index = batch.getSchema().indexOf(action.colName);
    return index < 0 ? null : batch.getColumnVector(index);
  }
}
