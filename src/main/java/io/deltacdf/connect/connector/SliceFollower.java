package io.deltacdf.connect.connector;

import io.deltacdf.connect.task.SnapshotSlices;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the snapshots being read in slices: looks at their stored offsets periodically and asks
 * Connect for new task configurations once every slice of one is complete, so that one task reads
 * that table's changes from there, or once the offsets fix another cut than the tasks read.
 */
public final class SliceFollower {

  private static final Logger log = LoggerFactory.getLogger(SliceFollower.class);

  /** How often the offsets of the snapshot slices being read are looked at. */
  public static final long CHECK_INTERVAL_MS = 5_000;

  private final SlicePlanner slices;
  private final Runnable requestReconfiguration;

  /** The snapshots whose slices the current task configurations read. */
  private volatile List<SnapshotSlices.Sliced> following = List.of();

  private ScheduledExecutorService checks;

  /**
   * @param requestReconfiguration asks Connect for new task configurations
   */
  public SliceFollower(SlicePlanner slices, Runnable requestReconfiguration) {
    this.slices = slices;
    this.requestReconfiguration = requestReconfiguration;
  }

  /**
   * Follows {@code sliced}, the snapshots the new task configurations read in slices, instead of
   * those it followed. The periodic check starts whenever slices are read, not only when
   * snapshot.max.tasks > 1: slices of a snapshot begun under a larger setting are read to their end
   * after the setting was lowered to 1, and their end must still hand the table to one task.
   */
  public void follow(List<SnapshotSlices.Sliced> sliced) {
    following = List.copyOf(sliced);
    if (!sliced.isEmpty()) {
      checkPeriodically();
    }
  }

  /** Starts the periodic check, once. */
  private synchronized void checkPeriodically() {
    if (checks != null) {
      return;
    }
    checks =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "delta-cdf-snapshot-slices");
              thread.setDaemon(true);
              return thread;
            });
    checks.scheduleWithFixedDelay(
        this::checkSafely, CHECK_INTERVAL_MS, CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
  }

  /**
   * Asks Connect for new task configurations once every slice of a snapshot being read is complete
   * (the table's changes are then read by one task), or once the stored offsets fix another cut of
   * a snapshot than the one planned (the plan was made before the old tasks' offsets were flushed:
   * the tasks must read the cut that was stored).
   */
  void check() {
    List<SnapshotSlices.Sliced> current = following;
    if (current.isEmpty()) {
      return;
    }
    Map<SlicePlanner.Progress, List<String>> tables = new EnumMap<>(SlicePlanner.Progress.class);
    for (SnapshotSlices.Sliced sliced : current) {
      tables.computeIfAbsent(slices.progress(sliced), p -> new ArrayList<>()).add(sliced.table());
    }
    if (tables.containsKey(SlicePlanner.Progress.COMPLETE)) {
      log.info(
          "Every snapshot slice of {} is complete: the tasks are reconfigured so that one task"
              + " reads each table's changes",
          tables.get(SlicePlanner.Progress.COMPLETE));
    }
    if (tables.containsKey(SlicePlanner.Progress.OTHER_CUT)) {
      log.info(
          "The stored slice offsets of {} fix another snapshot version or slice count than the"
              + " tasks were given (they were planned before the old tasks' offsets were"
              + " flushed): the tasks are reconfigured to read the stored one",
          tables.get(SlicePlanner.Progress.OTHER_CUT));
    }
    if (tables.keySet().stream().anyMatch(p -> p != SlicePlanner.Progress.READING)) {
      following = List.of(); // the new task configurations say what to follow next
      requestReconfiguration.run();
    }
  }

  private void checkSafely() {
    try {
      check();
    } catch (RuntimeException e) {
      // The next check tries again; the slices go on meanwhile.
      log.warn(
          "Could not check the snapshot slices' offsets: {}", Objects.toString(e.getMessage()));
    }
  }

  /** Ends the periodic check. */
  public synchronized void stop() {
    if (checks != null) {
      checks.shutdownNow();
      checks = null;
    }
  }
}
