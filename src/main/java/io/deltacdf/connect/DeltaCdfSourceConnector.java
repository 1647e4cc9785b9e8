package io.deltacdf.connect;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.connector.ConfigValidation;
import io.deltacdf.connect.connector.ConnectorTables;
import io.deltacdf.connect.connector.OffsetAlterations;
import io.deltacdf.connect.connector.SliceFollower;
import io.deltacdf.connect.connector.SlicePlanner;
import io.deltacdf.connect.connector.TableDiscoveryMetrics;
import io.deltacdf.connect.connector.TaskConfigs;
import io.deltacdf.connect.connector.TaskPlan;
import io.deltacdf.connect.convert.Notification;
import io.deltacdf.connect.task.Notifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceConnectorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams the change data feed of Delta tables: one source partition per table, tables spread over
 * up to {@code tasks.max} tasks, one task per table at a time. With snapshot.max.tasks > 1 a
 * table's initial snapshot is read in slices by several tasks (see {@link SlicePlanner}); the
 * connector follows their offsets ({@link SliceFollower}) and asks Connect for new task
 * configurations once every slice of a table is complete, so that one task reads the table's
 * changes from there. With table roots it lists them again on an interval and asks for new task
 * configurations when tables appear or go ({@link ConnectorTables}), sooner after a listing that
 * failed.
 */
public final class DeltaCdfSourceConnector extends SourceConnector {

  private static final Logger log = LoggerFactory.getLogger(DeltaCdfSourceConnector.class);

  private Map<String, String> settings;
  private DeltaCdfSourceConfig config;
  private SlicePlanner slices;
  private SliceFollower sliceFollower;
  private ConnectorTables tables;
  private ScheduledExecutorService rescans;
  private TableDiscoveryMetrics metrics;

  /** Tables found and dropped by rescans, to the log and JMX notification channels. */
  private Notifier notifier;

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
    slices = SlicePlanner.of(config, ((SourceConnectorContext) context).offsetStorageReader());
    sliceFollower = new SliceFollower(slices, context::requestTaskReconfiguration);
    tables =
        new ConnectorTables(
            config,
            ConnectorTables.storedOffsets(
                ((SourceConnectorContext) context).offsetStorageReader()));
    if (!config.tableRoots().isEmpty()) {
      metrics = new TableDiscoveryMetrics(settings.getOrDefault("name", "delta-cdf"), tables);
      notifier = Notifier.forConnector(config, settings.getOrDefault("name", "delta-cdf"));
      tables.refresh();
      rescans = Executors.newSingleThreadScheduledExecutor(DeltaCdfSourceConnector::rescanThread);
      rescanLater();
    }
  }

  /** Lists the roots again in the rescan interval, sooner after a listing that failed. */
  private void rescanLater() {
    try {
      rescans.schedule(this::rescan, tables.nextScanDelay().toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopping) {
      log.debug("The connector stops: no more rescans");
    }
  }

  /**
   * Lists the roots again; new tasks configurations when the tables changed. Nothing may escape: an
   * exception would end the schedule, and with it every later rescan.
   */
  private void rescan() {
    try {
      if (tables.refresh()) {
        notifyDiscovery(tables.lastChange());
        context.requestTaskReconfiguration();
      }
    } catch (RuntimeException e) {
      log.error("Rescanning the table roots failed; the next rescan tries again", e);
    } finally {
      rescanLater();
    }
  }

  /** Tables a rescan found or dropped, to the log and JMX notification channels. */
  private void notifyDiscovery(ConnectorTables.Change change) {
    long now = System.currentTimeMillis();
    String name = settings.getOrDefault("name", "delta-cdf");
    change.found().forEach(table -> notifier.publish(discovery("DISCOVERED", name, table, now)));
    change.dropped().forEach(table -> notifier.publish(discovery("DROPPED", name, table, now)));
  }

  private static Notification discovery(String type, String connector, String table, long now) {
    return Notification.of(
        "Table", type, Map.of("connector_name", connector, "data_collection", table), now);
  }

  private static Thread rescanThread(Runnable runnable) {
    Thread thread = new Thread(runnable, "delta-cdf-table-rescan");
    thread.setDaemon(true);
    return thread;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return DeltaCdfSourceTask.class;
  }

  /**
   * Spreads the tables, and the slices of snapshots read in parallel, round robin over up to {@code
   * maxTasks} tasks; the slices of one snapshot go to different tasks.
   */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    TaskPlan plan = TaskPlan.of(slices, tables.current(), maxTasks);
    sliceFollower.follow(plan.sliced());
    return TaskConfigs.of(settings, plan.units(), maxTasks);
  }

  @Override
  public void stop() {
    if (sliceFollower != null) {
      sliceFollower.stop();
    }
    if (rescans != null) {
      rescans.shutdownNow();
    }
    if (metrics != null) {
      metrics.close();
    }
    if (notifier != null) {
      notifier.close();
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

  /** See {@link OffsetAlterations}. */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    OffsetAlterations.requireValid(new DeltaCdfSourceConfig(connectorConfig), offsets);
    return true;
  }
}
