package io.deltacdf.connect.delta.plan;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.log.CommitReader;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The change files of a commit too large to hold, read from its log as they are asked for: the
 * commit's actions are read in order, one batch at a time, and turned into files by the same rules
 * and in the same order as {@link CommitPlanner} uses for files it holds, its deletion vector
 * updates met in step from their temp files ({@link DvUpdates}). Asking for an earlier file reads
 * the commit again from its start.
 */
public final class StreamedChangeFiles implements ChangeFiles {

  /** Which of a commit's files these are. */
  public enum Source {
    /** Its cdc files. */
    CDC,
    /** Its added and removed data files with {@code dataChange=true}. */
    DATA
  }

  private final CommitReader reader;
  private final Source source;
  private final int size;

  /** The files both removed and added (deletion vector updates). */
  private final DvUpdates dvUpdates;

  private CloseableIterator<ColumnarBatch> batches;
  private DvUpdates.Cursor updates;

  /** The number of the next data action read, as {@link DvUpdates} numbers them. */
  private long dataActions;

  private LogActions actions;
  private int row;

  /** The index of the file the next read returns. */
  private int nextIndex;

  private ChangeFile last;

  public StreamedChangeFiles(CommitReader reader, Source source, int size, DvUpdates dvUpdates) {
    this.reader = reader;
    this.source = source;
    this.size = size;
    this.dvUpdates = dvUpdates;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public ChangeFile get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException(index + " of " + size + " files");
    }
    if (last != null && index == nextIndex - 1) {
      return last;
    }
    if (batches == null || index < nextIndex) {
      restart();
    }
    while (nextIndex <= index) {
      last = readNext();
      nextIndex++;
    }
    return last;
  }

  /** Also deletes the temp files of the deletion vector updates, which a later read finds again. */
  @Override
  public void close() {
    stopReading();
    dvUpdates.close();
  }

  private void stopReading() {
    try (CloseableIterator<ColumnarBatch> reading = batches;
        DvUpdates.Cursor meeting = updates) {
      batches = null;
      updates = null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    actions = null;
    last = null;
  }

  private void restart() {
    stopReading();
    batches = reader.read();
    updates = dvUpdates.cursor();
    row = 0;
    nextIndex = 0;
    dataActions = 0;
  }

  private ChangeFile readNext() {
    while (true) {
      while (actions == null || row >= actions.size()) {
        if (!batches.hasNext()) {
          throw new IllegalStateException(
              "The commit holds fewer than the " + size + " files planned from it");
        }
        actions = LogActions.of(batches.next());
        row = 0;
      }
      if (actions.at(row++) instanceof LogAction.FileAction file) {
        ChangeFile change = changeOf(file);
        if (change != null) {
          return change;
        }
      }
    }
  }

  /** What {@code file} contributes, or null when nothing (or it was read with its pair). */
  private ChangeFile changeOf(LogAction.FileAction file) {
    if (source == Source.CDC) {
      return file.kind() == LogAction.Kind.CDC
          ? ChangeFile.cdc(file.path(), file.partitionValues(), file.size())
          : null;
    }
    if (!DvUpdates.isData(file)) {
      return null;
    }
    if (updates.isUpdate(dataActions++)) {
      return updates.file();
    }
    return ChangeFile.single(file);
  }
}
