package io.deltacdf.connect.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.task.TaskSettings;
import io.deltacdf.connect.task.TaskUnit;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The units the connector hands its tasks, round robin. */
class TaskConfigsTest {

  private static final String TABLE = "s3a://bucket/orders";

  @Test
  void taskSettingsCarryEveryUnitToItsTaskAndSlicesOfOneSnapshotToDifferentTasks() {
    List<TaskUnit> units =
        List.of(
            TaskUnit.afterSlices("file:/t/a", 4),
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(0, 3)),
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(1, 3)),
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(2, 3)),
            TaskUnit.table("abfss://c@account.dfs.core.windows.net/b"));
    Map<String, String> settings = ConnectorConfig.forTables("x").build();
    List<Map<String, String>> tasks = TaskConfigs.of(settings, units, 3);
    assertThat(tasks).hasSize(3);
    List<TaskUnit> read = new ArrayList<>();
    for (Map<String, String> task : tasks) {
      List<TaskUnit> own = TaskSettings.units(task);
      assertThat(own.stream().filter(u -> u.table().equals(TABLE))).hasSizeLessThanOrEqualTo(1);
      read.addAll(own);
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(units);
  }

  @Test
  void withSignalsTheFirstTaskKnowsEveryTableToRejectSignalsForOthers() {
    List<TaskUnit> units =
        List.of(
            TaskUnit.table("file:/t/a"),
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(0, 2)),
            TaskUnit.slice(TABLE, 7, new SnapshotSlice(1, 2)));
    Map<String, String> signals =
        ConnectorConfig.forTables("x").with("signal.enabled.channels", "kafka").build();

    List<Map<String, String>> tasks = TaskConfigs.of(signals, units, 2);

    assertThat(TaskSettings.allTables(tasks.get(0))).containsExactlyInAnyOrder("file:/t/a", TABLE);
    assertThat(TaskSettings.allTables(tasks.get(1))).isNull();
    assertThat(TaskSettings.index(tasks.get(1))).isEqualTo(1);
    assertThat(
            TaskSettings.allTables(
                TaskConfigs.of(ConnectorConfig.forTables("x").build(), units, 2).get(0)))
        .as("without signals no task lists the tables")
        .isNull();
  }
}
