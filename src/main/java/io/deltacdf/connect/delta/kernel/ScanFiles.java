package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.AddFile;
import java.util.Map;

/** Reads the data files of a snapshot from the batches of {@code Scan.getScanFiles}. */
public final class ScanFiles {

  private static final int ADD = InternalScanFileUtils.SCAN_FILE_SCHEMA.indexOf("add");
  private static final int PATH = AddFile.FULL_SCHEMA.indexOf("path");
  private static final int PARTITIONS = AddFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int SIZE = AddFile.FULL_SCHEMA.indexOf("size");
  private static final int DV = AddFile.FULL_SCHEMA.indexOf("deletionVector");

  private final ColumnVector adds;

  private ScanFiles(ColumnarBatch batch) {
    this.adds = batch.getColumnVector(ADD);
  }

  public static ScanFiles of(ColumnarBatch batch) {
    return new ScanFiles(batch);
  }

  /** The path of the file in {@code row}, as the log wrote it; cheaper than {@link #at}. */
  public String path(int row) {
    return adds.getChild(PATH).getString(row);
  }

  /** The partition values of the file in {@code row}, by physical column name. */
  public Map<String, String> partitionValues(int row) {
    return LogActions.partitionValues(adds.getChild(PARTITIONS), row);
  }

  /** The file in {@code row}, as the {@code add} action that put it in the snapshot. */
  public LogAction.FileAction at(int row) {
    return new LogAction.FileAction(
        LogAction.Kind.ADD,
        path(row),
        partitionValues(row),
        adds.getChild(SIZE).getLong(row),
        true,
        true,
        DeletionVector.at(adds.getChild(DV), row),
        null);
  }
}
