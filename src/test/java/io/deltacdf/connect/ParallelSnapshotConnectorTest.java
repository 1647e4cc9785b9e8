package io.deltacdf.connect;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.connector.SliceFollower;
import io.deltacdf.connect.connector.SlicePlanner;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.task.SnapshotSlices;
import io.deltacdf.connect.task.TaskSettings;
import io.deltacdf.connect.task.TaskUnit;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.StoredOffsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceConnectorContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector follows the slices of a parallel snapshot through its offset reader: it asks
 * Connect for new task configurations once, when the last slice is complete, and then gives the
 * table's changes to one task from the version after the snapshot (the steps themselves:
 * SliceFollowerTest).
 */
class ParallelSnapshotConnectorTest {

  private static final String TABLE = "file:/data/orders";

  private final StoredOffsets offsets = new StoredOffsets();
  private final AtomicInteger reconfigurations = new AtomicInteger();

  @BeforeEach
  void start() {
    // A slice has stored a position: the connector needs the offsets only, not the table.
    store(new SnapshotSlice(0, 2), new ChangePosition.InSnapshot(5, "part-3.parquet", 40));
  }

  /**
   * A plan made before the old tasks' offsets were flushed names a newer version than the one the
   * slices then stored: the snapshot is complete when every slice stored the end of the version
   * they pin, not of the planned one.
   */
  @Test
  void slicesAreCompleteAtTheEndOfTheVersionTheirOffsetsPin() {
    SlicePlanner slices =
        new SlicePlanner(
            new DeltaCdfSourceConfig(ConnectorConfig.forTables(TABLE).build()), offsets, t -> null);
    SnapshotSlices.Sliced planned = new SnapshotSlices.Sliced(TABLE, 9, 2);
    store(new SnapshotSlice(0, 2), ChangePosition.InVersion.start(6));
    assertThat(slices.progress(planned))
        .as("another cut than planned, one slice still being read")
        .isEqualTo(SlicePlanner.Progress.OTHER_CUT);

    store(new SnapshotSlice(1, 2), ChangePosition.InVersion.start(6));
    assertThat(slices.progress(planned)).isEqualTo(SlicePlanner.Progress.COMPLETE);
  }

  /**
   * snapshot.max.tasks lowered to 1 while slices are read: the stored slices are still read to
   * their end, and their end still hands the table to one task, without a test calling the check:
   * the connector's own periodic check asks for the reconfiguration.
   */
  @Test
  void slicesBegunUnderALargerSettingAreFollowedAfterItWasLoweredToOne() {
    DeltaCdfSourceConnector lowered = new DeltaCdfSourceConnector();
    lowered.initialize(new Context());
    lowered.start(ConnectorConfig.forTables(TABLE).with("tasks.max", "4").build());
    try {
      assertThat(lowered.taskConfigs(4))
          .extracting(ParallelSnapshotConnectorTest::units)
          .containsExactly(
              List.of(TaskUnit.slice(TABLE, 5, new SnapshotSlice(0, 2))),
              List.of(TaskUnit.slice(TABLE, 5, new SnapshotSlice(1, 2))));
      store(new SnapshotSlice(0, 2), ChangePosition.InVersion.start(6));
      store(new SnapshotSlice(1, 2), ChangePosition.InVersion.start(6));

      long deadline = System.nanoTime() + 3 * SliceFollower.CHECK_INTERVAL_MS * 1_000_000;
      while (reconfigurations.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(reconfigurations).as("reconfigurations asked for").hasValue(1);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    } finally {
      lowered.stop();
    }
  }

  @Test
  void aFreshTableIsSlicedAtItsLatestVersion(@TempDir Path dir) {
    String path = dir.resolve("fresh").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1), (2)", path);
    DeltaCdfSourceConnector fresh = new DeltaCdfSourceConnector();
    fresh.initialize(new Context());
    fresh.start(
        ConnectorConfig.forTables(path).with("tasks.max", "3", "snapshot.max.tasks", "4").build());
    try {
      assertThat(fresh.taskConfigs(3))
          .extracting(ParallelSnapshotConnectorTest::units)
          .containsExactly(
              List.of(TaskUnit.slice(path, 1, new SnapshotSlice(0, 3))),
              List.of(TaskUnit.slice(path, 1, new SnapshotSlice(1, 3))),
              List.of(TaskUnit.slice(path, 1, new SnapshotSlice(2, 3))));
    } finally {
      fresh.stop();
    }
  }

  private static List<TaskUnit> units(Map<String, String> taskConfig) {
    return TaskSettings.units(taskConfig);
  }

  private void store(SnapshotSlice slice, ChangePosition position) {
    offsets.put(new TablePartition(TABLE, slice).toMap(), OffsetCodec.toMap(position));
  }

  private final class Context implements SourceConnectorContext {
    @Override
    public OffsetStorageReader offsetStorageReader() {
      return offsets;
    }

    @Override
    public void requestTaskReconfiguration() {
      reconfigurations.incrementAndGet();
    }

    @Override
    public void raiseError(Exception e) {
      throw new AssertionError(e);
    }

    @Override
    public PluginMetrics pluginMetrics() {
      throw new UnsupportedOperationException();
    }
  }
}
