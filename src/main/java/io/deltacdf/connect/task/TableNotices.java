package io.deltacdf.connect.task;

import io.deltacdf.connect.change.FeedProgress;
import io.deltacdf.connect.convert.Notification;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The notifications about one table (or snapshot slice, or shard) of a task: made here, published
 * to the log and JMX at once, and kept for the notification topic until the task hands them to
 * Connect.
 */
final class TableNotices {

  /** Aggregate type of a snapshot a table starts with (start.mode=snapshot, a re-snapshot). */
  static final String INITIAL_SNAPSHOT = "Initial Snapshot";

  /** Aggregate type of a snapshot an execute-snapshot signal started. */
  static final String SIGNALLED_SNAPSHOT = "Blocking Snapshot";

  static final String TABLE = "Table";
  static final String SIGNAL = "Signal";

  /** How often a snapshot in progress is notified at most. */
  static final long PROGRESS_INTERVAL_MS = 10_000;

  private final Notifier notifier;
  private final TablePartition partition;
  private final List<Notification> waiting = new ArrayList<>();
  private long lastProgressMs;

  /**
   * @param partition the table, or its snapshot slice or shard, which notifications name
   */
  TableNotices(Notifier notifier, TablePartition partition) {
    this.notifier = notifier;
    this.partition = partition;
  }

  /** Notifies {@code type} of {@code aggregateType} about the table, with {@code details}. */
  void add(String aggregateType, String type, Map<String, String> details, long nowMs) {
    if (!notifier.enabled()) {
      return;
    }
    Map<String, String> data = new LinkedHashMap<>();
    data.put("connector_name", notifier.connectorName());
    data.put("data_collection", partition.table());
    if (partition.slice() != null) {
      data.put("slice", partition.slice().label());
    }
    if (partition.shard() != null) {
      data.put("shard", partition.shard().label());
    }
    data.putAll(details);
    Notification notification = Notification.of(aggregateType, type, data, nowMs);
    notifier.publish(notification);
    if (notifier.toTopic()) {
      waiting.add(notification);
    }
  }

  /** A snapshot in progress: notified at most every {@link #PROGRESS_INTERVAL_MS}. */
  void snapshotProgress(
      String aggregateType, long version, FeedProgress progress, long rows, long nowMs) {
    if (nowMs - lastProgressMs < PROGRESS_INTERVAL_MS) {
      return;
    }
    lastProgressMs = nowMs;
    add(aggregateType, "IN_PROGRESS", snapshotDetails(version, progress, rows), nowMs);
  }

  /** What a snapshot notification says about how far the snapshot has come. */
  static Map<String, String> snapshotDetails(long version, FeedProgress progress, long rows) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put("version", Long.toString(version));
    data.put("total_rows_scanned", Long.toString(rows));
    if (progress != null) {
      data.put("files_done", Long.toString(progress.snapshotFilesDone()));
      data.put("files_total", Long.toString(progress.snapshotFilesTotal()));
      long total = progress.snapshotFilesTotal();
      data.put(
          "percent", Long.toString(total == 0 ? 100 : progress.snapshotFilesDone() * 100 / total));
    }
    return data;
  }

  /** Whether notifications wait for the notification topic. */
  boolean waiting() {
    return !waiting.isEmpty();
  }

  /** The notifications waiting for the topic, in order; none wait afterwards. */
  List<Notification> take() {
    List<Notification> taken = List.copyOf(waiting);
    waiting.clear();
    return taken;
  }
}
