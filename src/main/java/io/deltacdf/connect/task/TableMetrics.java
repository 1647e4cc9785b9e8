package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FeedProgress;
import io.deltacdf.connect.change.VersionSourceCounts;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics of one table in one task, registered as the MBean {@code
 * io.deltacdf.connect:type=table-metrics,connector=<name>,table=<table path>} while the task runs.
 * Written by the task thread, read by JMX threads.
 */
public final class TableMetrics implements TableMetricsMBean, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TableMetrics.class);

  /**
   * The instance registered under each name. A task that replaces a zombie (one that did not stop
   * in time) takes over the name; the zombie's late close must then leave it alone.
   */
  private static final Map<ObjectName, TableMetrics> registered = new HashMap<>();

  private final ObjectName name;
  private volatile long lastVersion = -1;
  private volatile long lastCommitMs;
  private final TablePosition position;
  private volatile FeedProgress progress = new FeedProgress(-1, 0, 0, 0, VersionSourceCounts.NONE);

  /** The versions that feeds closed before the current one read, by source. */
  private VersionSourceCounts closedFeedsVersions = VersionSourceCounts.NONE;

  private final AtomicLong inserted = new AtomicLong();
  private final AtomicLong preimages = new AtomicLong();
  private final AtomicLong postimages = new AtomicLong();
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong resnapshots = new AtomicLong();
  private final AtomicLong anotherTableStarts = new AtomicLong();
  private volatile long endVersion = -1;
  private volatile boolean endReached;

  /**
   * @param position the table's position, read here from the metrics' thread
   */
  TableMetrics(String connector, String table, TablePosition position) {
    this.name = objectName(connector, table);
    this.position = position;
    register();
  }

  public static ObjectName objectName(String connector, String table) {
    try {
      return new ObjectName(
          "io.deltacdf.connect:type=table-metrics,connector="
              + ObjectName.quote(connector)
              + ",table="
              + ObjectName.quote(table));
    } catch (JMException e) {
      throw new IllegalArgumentException(e);
    }
  }

  void recordBatch(ChangeBatch batch) {
    // Counted locally first: one atomic add per counter and batch rather than one per row.
    long[] byType = new long[ChangeType.values().length];
    for (ChangeRow row : batch.rows()) {
      byType[row.type().ordinal()]++;
    }
    inserted.addAndGet(byType[ChangeType.INSERT.ordinal()]);
    preimages.addAndGet(byType[ChangeType.UPDATE_PREIMAGE.ordinal()]);
    postimages.addAndGet(byType[ChangeType.UPDATE_POSTIMAGE.ordinal()]);
    deleted.addAndGet(byType[ChangeType.DELETE.ordinal()]);
    ChangeRow last = batch.rows().get(batch.rows().size() - 1);
    lastVersion = last.version();
    lastCommitMs = last.commitTimestampMs();
  }

  /** After each read: how far the feed has come (the position itself is the table's own). */
  void recordProgress(FeedProgress progress) {
    this.progress = progress;
  }

  /**
   * The feed whose progress was recorded last is closed (a failure reopens it, a rewind starts it
   * over): the versions it read stay counted once the next feed starts from none.
   */
  synchronized void recordFeedClosed() {
    FeedProgress last = progress;
    closedFeedsVersions = closedFeedsVersions.plus(last.versions());
    progress =
        new FeedProgress(
            last.latestKnownVersion(),
            last.snapshotFilesDone(),
            last.snapshotFilesTotal(),
            last.bytesRead(),
            VersionSourceCounts.NONE);
  }

  @Override
  public long getLastVersion() {
    return lastVersion;
  }

  @Override
  public String getPosition() {
    ChangePosition at = position.read();
    return at == null ? "" : at.toString();
  }

  @Override
  public long getLatestTableVersion() {
    return progress.latestKnownVersion();
  }

  @Override
  public long getVersionsBehind() {
    // Every version before the one the position lies in has been read completely.
    ChangePosition at = position.read();
    return at == null ? 0 : Math.max(0, progress.latestKnownVersion() - (at.version() - 1));
  }

  @Override
  public long getCommitLagMs() {
    return getVersionsBehind() == 0 || lastVersion < 0
        ? 0
        : Math.max(0, System.currentTimeMillis() - lastCommitMs);
  }

  @Override
  public long getRowsInserted() {
    return inserted.get();
  }

  @Override
  public long getRowsUpdatePreimage() {
    return preimages.get();
  }

  @Override
  public long getRowsUpdatePostimage() {
    return postimages.get();
  }

  @Override
  public long getRowsDeleted() {
    return deleted.get();
  }

  @Override
  public long getSnapshotFilesDone() {
    return progress.snapshotFilesDone();
  }

  @Override
  public long getSnapshotFilesTotal() {
    return progress.snapshotFilesTotal();
  }

  @Override
  public long getBytesRead() {
    return progress.bytesRead();
  }

  @Override
  public long getVersionsFromCdf() {
    return versionsRead().cdf();
  }

  @Override
  public long getVersionsFromRowTracking() {
    return versionsRead().rowTracking();
  }

  @Override
  public long getVersionsDerived() {
    return versionsRead().derived();
  }

  /**
   * Synchronized with {@link #recordFeedClosed}, which moves counts from one field to the other.
   */
  private synchronized VersionSourceCounts versionsRead() {
    return closedFeedsVersions.plus(progress.versions());
  }

  @Override
  public long getResnapshots() {
    return resnapshots.get();
  }

  void recordResnapshot() {
    resnapshots.incrementAndGet();
  }

  @Override
  public long getAnotherTableStarts() {
    return anotherTableStarts.get();
  }

  void recordAnotherTable() {
    anotherTableStarts.incrementAndGet();
  }

  @Override
  public long getEndVersion() {
    return endVersion;
  }

  /** The table was opened by a bounded run that reads up to {@code lastVersion}. */
  void recordEnd(long lastVersion) {
    endVersion = lastVersion == RunEnd.UNBOUNDED ? -1 : lastVersion;
  }

  @Override
  public boolean isEndReached() {
    return endReached;
  }

  void recordEndReached() {
    endReached = true;
  }

  private void register() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    synchronized (registered) {
      try {
        if (server.isRegistered(name)) {
          // A previous task instance of this connector did not stop cleanly.
          server.unregisterMBean(name);
        }
        server.registerMBean(this, name);
        registered.put(name, this);
      } catch (JMException e) {
        log.warn("Could not register metrics {}: {}", name, e.getMessage());
      }
    }
  }

  /** Unregisters these metrics, unless another instance has taken their name since. */
  @Override
  public void close() {
    synchronized (registered) {
      if (!registered.remove(name, this)) {
        return;
      }
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
      } catch (JMException e) {
        log.debug("Metrics {} were not registered: {}", name, e.getMessage());
      }
    }
  }
}
