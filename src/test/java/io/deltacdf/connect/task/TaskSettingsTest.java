package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The units the connector writes into a task's settings, as the task reads them back. */
class TaskSettingsTest {

  private static final String TABLE = "s3a://bucket/orders";

  @Test
  void everyKindOfUnitRoundTrips() {
    List<TaskUnit> units =
        List.of(
            TaskUnit.table(TABLE),
            TaskUnit.afterSlices(TABLE, 0),
            TaskUnit.afterSlices(TABLE, 41),
            TaskUnit.slice(TABLE, 0, new SnapshotSlice(0, 2)),
            TaskUnit.slice(TABLE, 41, new SnapshotSlice(63, 64)),
            TaskUnit.shard(TABLE, new TableShard(2, 3)),
            TaskUnit.afterSlices(TABLE, 41, new TableShard(0, 16)));
    Map<String, String> settings = ConnectorConfig.forTables(TABLE).build();
    assertThat(TaskSettings.units(TaskSettings.forUnits(settings, units))).isEqualTo(units);
  }

  /**
   * A task's settings stay readable in the REST API: one key per fact of each unit, the versions
   * written as they are meant, with no offset to remember on reading.
   */
  @Test
  void eachUnitIsWrittenUnderItsIndex() {
    Map<String, String> settings = ConnectorConfig.forTables(TABLE).build();
    Map<String, String> task =
        TaskSettings.forUnits(
            settings,
            List.of(
                TaskUnit.table("file:/t/a"),
                TaskUnit.slice(TABLE, 7, new SnapshotSlice(1, 3)),
                TaskUnit.afterSlices(TABLE, 5)));

    Map<String, String> taskOnly = new HashMap<>(task);
    taskOnly.keySet().removeAll(settings.keySet());
    assertThat(task).containsAllEntriesOf(settings);
    assertThat(taskOnly)
        .isEqualTo(
            Map.of(
                "task.units", "3",
                "task.unit.0.table", "file:/t/a",
                "task.unit.1.table", TABLE,
                "task.unit.1.slice", "1/3",
                "task.unit.1.snapshot.version", "7",
                "task.unit.2.table", TABLE,
                "task.unit.2.start.version", "6"));
  }

  /** A worker may start a task from the settings an older release stored: they stay readable. */
  @Test
  void storedTaskSettingsOfTheLastReleaseAreRead() {
    Map<String, String> stored = new HashMap<>(ConnectorConfig.forTables(TABLE).build());
    stored.putAll(
        Map.of(
            "task.units", "2",
            "task.unit.0.table", TABLE,
            "task.unit.0.start.version", "6",
            "task.unit.1.table", "file:/t/a",
            "task.unit.1.slice", "0/2",
            "task.unit.1.snapshot.version", "5"));
    assertThat(TaskSettings.units(stored))
        .containsExactly(
            new TaskUnit(new TablePartition(TABLE), ChangePosition.InVersion.start(6)),
            TaskUnit.slice("file:/t/a", 5, new SnapshotSlice(0, 2)));
  }

  @Test
  void settingsWithoutUnitsHandATaskNone() {
    assertThat(TaskSettings.units(ConnectorConfig.forTables(TABLE).build())).isEmpty();
  }

  @Test
  void aSliceWithoutItsSnapshotVersionIsRejected() {
    assertThatThrownBy(
            () ->
                TaskSettings.units(
                    Map.of(
                        "task.units", "1", "task.unit.0.table", TABLE, "task.unit.0.slice", "1/2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task.unit.0.snapshot.version");
    assertThatThrownBy(() -> TaskSettings.units(Map.of("task.units", "two")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("task.units");
  }
}
