package io.deltacdf.connect.delta.plan;

import io.delta.kernel.CommitActions;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.log.CommitReader;
import io.deltacdf.connect.delta.spill.DiffSpill;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides which files carry a version's changes, following Spark's CDF rules: the version's cdc
 * files when it has any; nothing for a MERGE that changed no rows; otherwise the added and removed
 * data files with {@code dataChange=true}, paired by path when a deletion vector was updated, in
 * the order their paths first appear in the log.
 *
 * <p>A commit of up to {@link ChangeRules#planMemoryFiles} file actions (by default {@value
 * ChangeRules#HELD_FILE_ACTIONS}) is planned in memory. A larger one (a DELETE or INSERT OVERWRITE
 * of a huge table) keeps only an 8-byte fingerprint per path while reading it; a second read pairs
 * the actions of the paths both added and removed in temp files ({@link DvUpdates}), and its files
 * are then read from the log as they are asked for ({@link StreamedChangeFiles}). Both number the
 * files alike, so a position inside a version means the same file either way.
 */
public final class CommitPlanner {

  private CommitPlanner() {}

  /**
   * Plans {@code commit}, read once; {@code reader} reads it again when it is too large, whose
   * deletion vector updates are then found in temp files within {@code spill}'s limits.
   */
  public static VersionPlan plan(
      String table,
      CommitActions commit,
      CommitReader reader,
      int heldFileActions,
      DiffSpill spill) {
    Collector collector = new Collector(table, commit.getVersion(), heldFileActions);
    try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
      while (batches.hasNext()) {
        collector.collect(batches.next());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return collector.toPlan(reader, spill);
  }

  /** Accumulates one commit's actions: all of them while few, fingerprints once many. */
  private static final class Collector {
    private final String table;
    private final long version;
    private final int heldFileActions;

    /** The cdc and data-changing file actions in log order; null once there are too many. */
    private List<LogAction.FileAction> held = new ArrayList<>();

    private int cdcCount;
    private final PathFingerprints added = new PathFingerprints();
    private final PathFingerprints removed = new PathFingerprints();
    private TableMetadata metadata;
    private LogAction.CommitInfo commitInfo;
    private boolean catalogManaged;

    public Collector(String table, long version, int heldFileActions) {
      this.table = table;
      this.version = version;
      this.heldFileActions = heldFileActions;
    }

    public void collect(ColumnarBatch batch) {
      LogActions actions = LogActions.of(batch);
      for (int row = 0; row < actions.size(); row++) {
        LogAction action = actions.at(row);
        if (action instanceof LogAction.FileAction file) {
          collectFile(file);
        } else if (action instanceof LogAction.MetadataAction changed) {
          metadata = changed.metadata();
        } else if (action instanceof LogAction.ProtocolAction protocol) {
          catalogManaged = protocol.catalogManaged();
        } else if (action instanceof LogAction.CommitInfo info) {
          commitInfo = info;
        }
      }
    }

    private void collectFile(LogAction.FileAction file) {
      switch (file.kind()) {
        case CDC -> cdcCount++;
        case ADD -> {
          if (file.dataChange()) {
            added.add(file.path());
          }
        }
        case REMOVE -> {
          requireExtendedMetadata(file);
          if (file.dataChange()) {
            removed.add(file.path());
          }
        }
        default -> throw new IllegalStateException("Not a file action: " + file.kind());
      }
      if (held != null && (file.kind() == LogAction.Kind.CDC || file.dataChange())) {
        held.add(file);
        if (held.size() > heldFileActions) {
          held = null;
        }
      }
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

    public VersionPlan toPlan(CommitReader reader, DiffSpill spill) {
      ChangeFiles dataFiles;
      boolean needsDiff;
      if (isMergeWithoutChanges()) {
        dataFiles = ChangeFiles.NONE;
        needsDiff = false;
      } else if (held != null) {
        List<ChangeFile> files = heldDataFiles();
        dataFiles = ChangeFiles.of(files);
        needsDiff = needsDiff(files);
      } else {
        DvUpdates dvUpdates =
            DvUpdates.find(reader, PathFingerprints.common(added, removed), spill);
        int singles = added.size() + removed.size() - 2 * dvUpdates.count();
        dataFiles =
            new StreamedChangeFiles(
                reader, StreamedChangeFiles.Source.DATA, singles + dvUpdates.count(), dvUpdates);
        boolean rowsEnter = added.size() > dvUpdates.count() || dvUpdates.unhidesRows();
        boolean rowsLeave = removed.size() > 0;
        needsDiff = rowsEnter && rowsLeave;
      }
      ChangeFiles files = dataFiles;
      if (cdcCount > 0) {
        files =
            held != null
                ? ChangeFiles.of(
                    held.stream()
                        .filter(file -> file.kind() == LogAction.Kind.CDC)
                        .map(
                            file ->
                                ChangeFile.cdc(file.path(), file.partitionValues(), file.size()))
                        .toList())
                : new StreamedChangeFiles(
                    reader, StreamedChangeFiles.Source.CDC, cdcCount, DvUpdates.NONE);
      }
      return new VersionPlan(
          version,
          files,
          dataFiles,
          needsDiff,
          Optional.ofNullable(metadata),
          Optional.ofNullable(commitInfo).flatMap(LogAction.CommitInfo::inCommitTimestamp),
          catalogManaged,
          commitInfo != null && "RESTORE".equals(commitInfo.operation().orElse(null)));
    }

    /** The held added and removed data files, by first appearance of their path in the log. */
    private List<ChangeFile> heldDataFiles() {
      Map<String, LogAction.FileAction> adds = new HashMap<>();
      Map<String, LogAction.FileAction> removes = new HashMap<>();
      Map<String, Boolean> pathOrder = new LinkedHashMap<>();
      for (LogAction.FileAction file : held) {
        if (file.kind() != LogAction.Kind.CDC) {
          (file.kind() == LogAction.Kind.ADD ? adds : removes).put(file.path(), file);
          pathOrder.putIfAbsent(file.path(), Boolean.TRUE);
        }
      }
      List<ChangeFile> files = new ArrayList<>(pathOrder.size());
      for (String path : pathOrder.keySet()) {
        LogAction.FileAction add = adds.get(path);
        LogAction.FileAction remove = removes.get(path);
        files.add(
            add != null && remove != null
                ? ChangeFile.dvUpdate(add, remove)
                : ChangeFile.single(add != null ? add : remove));
      }
      return files;
    }

    /**
     * Whether deriving the changes needs a diff: rows leave the table (removed files, rows newly
     * hidden by a deletion vector) and rows enter it (added files) in the same version, so some may
     * be the same rows rewritten (copy-on-write UPDATE, MERGE, DELETE, overwrite).
     */
    private static boolean needsDiff(List<ChangeFile> files) {
      boolean rowsLeave = false;
      boolean rowsEnter = false;
      for (ChangeFile file : files) {
        switch (file.kind()) {
          case ADDED -> rowsEnter = true;
          case REMOVED -> rowsLeave = true;
          case DV_UPDATE -> {
            rowsLeave = true;
            // A re-added file may also un-hide rows (RESTORE): they enter.
            rowsEnter |= file.removeDv() != null;
          }
          default -> {}
        }
      }
      return rowsLeave && rowsEnter;
    }

    /**
     * Spark emits nothing for a MERGE whose metrics say it inserted, updated and deleted 0 rows.
     */
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
