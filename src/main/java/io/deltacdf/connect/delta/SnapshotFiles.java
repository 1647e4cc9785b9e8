package io.deltacdf.connect.delta;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The data files of a snapshot in path order, handed out in windows of bounded size.
 *
 * <p>Log replay order is not stable (a checkpoint written later changes it), so a position inside
 * a snapshot names a file by path. Sorting a huge file list would hold it all in memory; instead
 * each window re-runs the scan and keeps only the next {@code windowSize} paths, which costs one
 * scan per window and memory for one window.
 */
final class SnapshotFiles {

  private static final int ADD = InternalScanFileUtils.SCAN_FILE_SCHEMA.indexOf("add");
  private static final int PATH = AddFile.FULL_SCHEMA.indexOf("path");
  private static final int PARTITIONS = AddFile.FULL_SCHEMA.indexOf("partitionValues");
  private static final int SIZE = AddFile.FULL_SCHEMA.indexOf("size");
  private static final int DV = AddFile.FULL_SCHEMA.indexOf("deletionVector");

  private final FeedContext context;
  private final Snapshot snapshot;
  private final int windowSize;

  SnapshotFiles(FeedContext context, Snapshot snapshot, int windowSize) {
    this.context = context;
    this.snapshot = snapshot;
    this.windowSize = windowSize;
  }

  /**
   * @param files files in path order
   * @param following the path of the first file after the window, or null when it is the last
   * @param before how many of the snapshot's files sort before the window
   * @param total how many files the snapshot has
   */
  record Window(List<ChangeFile> files, String following, long before, long total) {
    boolean last() {
      return following == null;
    }
  }

  /** The next files whose path sorts at or after {@code fromPath}. */
  Window window(String fromPath) {
    TreeMap<String, ChangeFile> smallest = new TreeMap<>();
    long before = 0;
    long total = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(context.engine())) {
      while (batches.hasNext()) {
        FilteredColumnarBatch filtered = batches.next();
        ColumnarBatch batch = filtered.getData();
        Optional<ColumnVector> selection = filtered.getSelectionVector();
        ColumnVector adds = batch.getColumnVector(ADD);
        for (int row = 0; row < batch.getSize(); row++) {
          if (selection.isPresent()
              && (selection.get().isNullAt(row) || !selection.get().getBoolean(row))) {
            continue;
          }
          String path = adds.getChild(PATH).getString(row);
          total++;
          if (path.compareTo(fromPath) < 0) {
            before++;
            continue;
          }
          if (smallest.size() > windowSize && path.compareTo(smallest.lastKey()) > 0) {
            continue;
          }
          smallest.put(path, added(adds, row, path));
          if (smallest.size() > windowSize + 1) {
            smallest.pollLastEntry();
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      throw KernelErrors.translateReplay(
          context.table(), "the snapshot of version " + snapshot.getVersion(), snapshot, e);
    }
    List<ChangeFile> files = new ArrayList<>(smallest.values());
    String following = null;
    if (files.size() > windowSize) {
      following = files.remove(files.size() - 1).path();
    }
    return new Window(files, following, before, total);
  }

  private static ChangeFile added(ColumnVector adds, int row, String path) {
    ColumnVector partitions = adds.getChild(PARTITIONS);
    Map<String, String> partitionValues =
        partitions.isNullAt(row) ? Map.of() : VectorUtils.toJavaMap(partitions.getMap(row));
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.fromColumnVector(adds.getChild(DV), row);
    return new ChangeFile(
        ChangeFile.Kind.ADDED, path, partitionValues, adds.getChild(SIZE).getLong(row), dv, null);
  }
}
