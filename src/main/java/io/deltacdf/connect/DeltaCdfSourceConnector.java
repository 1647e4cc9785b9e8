package io.deltacdf.connect;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.stream.ConfigValidation;
import io.deltacdf.connect.stream.SnapshotSlices;
import io.deltacdf.connect.stream.TaskConfigs;
import io.deltacdf.connect.stream.TaskUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceConnectorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams the change data feed of Delta tables: one source partition per table, tables spread
 * over up to {@code tasks.max} tasks, one task per table at a time. With snapshot.max.tasks > 1
 * a table's initial snapshot is read in slices by several tasks (see {@link SnapshotSlices});
 * the connector follows their offsets and asks Connect for new task configurations once every
 * slice of a table is complete, so that one task reads the table's changes from there.
 */
public final class DeltaCdfSourceConnector extends SourceConnector {

  private static final Logger log = LoggerFactory.getLogger(DeltaCdfSourceConnector.class);

  /** How often the connector looks at the offsets of the snapshot slices being read. */
  static final long SLICE_CHECK_INTERVAL_MS = 5_000;

  private Map<String, String> settings;
  private DeltaCdfSourceConfig config;
  /** The snapshots whose slices the current task configurations read. */
  private volatile List<SnapshotSlices.Sliced> following = List.of();
  private ScheduledExecutorService sliceChecks;

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public ConfigDef config() {
    return DeltaCdfSourceConfig.configDef();
  }

  @Override
  public void start(Map<String, String> settings) {
    this.settings = Map.copyOf(settings);
    this.config = new DeltaCdfSourceConfig(settings);
    config.requireConsistent();
  }

  @Override
  public Class<? extends Task> taskClass() {
    return DeltaCdfSourceTask.class;
  }

  /**
   * Spreads the tables, and the slices of snapshots read in parallel, round robin over up to
   * {@code maxTasks} tasks; the slices of one snapshot go to different tasks.
   */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    SnapshotSlices slices = slices();
    List<TaskUnit> units = new ArrayList<>();
    List<SnapshotSlices.Sliced> sliced = new ArrayList<>();
    for (String table : config.tablePaths()) {
      SnapshotSlices.Plan plan = slices.plan(table, maxTasks);
      units.addAll(plan.units());
      if (plan.sliced() != null) {
        sliced.add(plan.sliced());
        log.info(
            "Table {}: the snapshot of version {} is read in {} slices by as many tasks",
            table,
            plan.sliced().version(),
            plan.sliced().count());
      }
    }
    following = List.copyOf(sliced);
    if (!sliced.isEmpty()) {
      checkSlicesPeriodically();
    }
    return TaskConfigs.of(settings, units, maxTasks);
  }

  /**
   * Starts the periodic slice check, once. It starts whenever slices are read, not only when
   * snapshot.max.tasks > 1: slices of a snapshot begun under a larger setting are read to their
   * end after the setting was lowered to 1, and their end must still hand the table to one task.
   */
  private synchronized void checkSlicesPeriodically() {
    if (sliceChecks != null) {
      return;
    }
    sliceChecks =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "delta-cdf-snapshot-slices");
              thread.setDaemon(true);
              return thread;
            });
    sliceChecks.scheduleWithFixedDelay(
        this::followSlicesSafely,
        SLICE_CHECK_INTERVAL_MS,
        SLICE_CHECK_INTERVAL_MS,
        TimeUnit.MILLISECONDS);
  }

  private SnapshotSlices slices() {
    return SnapshotSlices.of(config, ((SourceConnectorContext) context).offsetStorageReader());
  }

  /**
   * Asks Connect for new task configurations once every slice of a snapshot being read is
   * complete: the table's changes are then read by one task.
   */
  void followSlices() {
    List<SnapshotSlices.Sliced> current = following;
    if (current.isEmpty()) {
      return;
    }
    SnapshotSlices slices = slices();
    List<SnapshotSlices.Sliced> done = current.stream().filter(slices::complete).toList();
    if (!done.isEmpty()) {
      log.info(
          "Every snapshot slice of {} is complete: the tasks are reconfigured so that one task"
              + " reads each table's changes",
          done.stream().map(SnapshotSlices.Sliced::table).toList());
      following = List.of(); // taskConfigs sets what to follow next
      context.requestTaskReconfiguration();
    }
  }

  private void followSlicesSafely() {
    try {
      followSlices();
    } catch (RuntimeException e) {
      // The next check tries again; the slices go on meanwhile.
      log.warn("Could not check the snapshot slices' offsets: {}", Objects.toString(e.getMessage()));
    }
  }

  @Override
  public synchronized void stop() {
    if (sliceChecks != null) {
      sliceChecks.shutdownNow();
      sliceChecks = null;
    }
  }

  /** See {@link ConfigValidation}. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    return ConfigValidation.validate(connectorConfigs, version());
  }

  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    // Replaying from a stored offset yields the same rows in the same order.
    return ExactlyOnceSupport.SUPPORTED;
  }

  @Override
  public ConnectorTransactionBoundaries canDefineTransactionBoundaries(
      Map<String, String> connectorConfig) {
    return ConnectorTransactionBoundaries.SUPPORTED;
  }

  /**
   * Accepts offsets for the configured tables in the shapes {@link OffsetCodec} documents; a
   * null offset resets a table to start.mode. A reset is accepted for any table, also one that
   * was removed from the configuration or whose path was respelled: its stored offset would
   * otherwise stay forever.
   */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    List<String> tables = new DeltaCdfSourceConfig(connectorConfig).tablePaths();
    for (Map.Entry<Map<String, ?>, Map<String, ?>> entry : offsets.entrySet()) {
      try {
        TablePartition partition = TablePartition.fromMap(entry.getKey());
        if (entry.getValue() == null) {
          continue;
        }
        if (!tables.contains(partition.table())) {
          throw new IllegalArgumentException(
              "Table "
                  + partition.table()
                  + " is not one of this connector's tables "
                  + tables
                  + "; use the table URI exactly as in "
                  + DeltaCdfSourceConfig.TABLE_PATHS);
        }
        OffsetCodec.fromMap(entry.getValue());
      } catch (IllegalArgumentException e) {
        throw new ConnectException(e.getMessage(), e);
      }
    }
    return true;
  }
}
