package io.deltacdf.connect.delta.plan;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.ScanFiles;
import io.deltacdf.connect.delta.table.FeedContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The data files of a snapshot in path order, handed out in windows of bounded size.
 *
 * <p>Log replay order is not stable (a checkpoint written later changes it), so a position inside a
 * snapshot names a file by path. Sorting a huge file list would hold it all in memory; instead each
 * window re-runs the scan and keeps only the next {@code windowSize} paths, which costs one scan
 * per window and memory for one window.
 *
 * <p>With a {@link SnapshotSlice} other than the whole, only the files of that slice are handed out
 * (and counted), so that tasks reading the other slices read every other file. Files whose
 * partition values a row filter refuses are neither handed out nor counted.
 */
public final class SnapshotFiles {

  private final FeedContext context;
  private final Snapshot snapshot;
  private final int windowSize;
  private final SnapshotSlice slice;
  private final Predicate<Map<String, String>> partitions;

  /**
   * @param partitions whether the rows of a file with these partition values (by physical name) are
   *     read
   */
  public SnapshotFiles(
      FeedContext context,
      Snapshot snapshot,
      int windowSize,
      SnapshotSlice slice,
      Predicate<Map<String, String>> partitions) {
    this.context = context;
    this.snapshot = snapshot;
    this.windowSize = windowSize;
    this.slice = slice;
    this.partitions = partitions;
  }

  /**
   * @param files files in path order
   * @param following the path of the first file after the window, or null when it is the last
   * @param before how many of the snapshot's (or slice's) files sort before the window
   * @param total how many files the snapshot (or slice) has
   */
  public record Window(List<ChangeFile> files, String following, long before, long total) {
    public boolean last() {
      return following == null;
    }
  }

  /** The next files whose path sorts at or after {@code fromPath}. */
  public Window window(String fromPath) {
    TreeMap<String, ChangeFile> smallest = new TreeMap<>();
    long before = 0;
    long total = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(context.engine())) {
      while (batches.hasNext()) {
        FilteredColumnarBatch filtered = batches.next();
        ColumnarBatch batch = filtered.getData();
        Optional<ColumnVector> selection = filtered.getSelectionVector();
        ScanFiles files = ScanFiles.of(batch);
        for (int row = 0; row < batch.getSize(); row++) {
          if (selection.isPresent()
              && (selection.get().isNullAt(row) || !selection.get().getBoolean(row))) {
            continue;
          }
          String path = files.path(row);
          if (!slice.contains(path) || !partitions.test(files.partitionValues(row))) {
            continue;
          }
          total++;
          if (path.compareTo(fromPath) < 0) {
            before++;
            continue;
          }
          if (smallest.size() > windowSize && path.compareTo(smallest.lastKey()) > 0) {
            continue;
          }
          smallest.put(path, added(files.at(row)));
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

  private static ChangeFile added(LogAction.FileAction add) {
    return new ChangeFile(
        ChangeFile.Kind.ADDED,
        add.path(),
        add.partitionValues(),
        add.size(),
        add.deletionVector(),
        null,
        null);
  }
}
