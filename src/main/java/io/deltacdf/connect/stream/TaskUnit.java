package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one task reads of one table: the whole table (from its stored offset, else from {@code
 * start}, else from start.mode), or one slice of its initial snapshot (from the slice's stored
 * offset, else from the snapshot's start). The connector hands units out through the task-only
 * settings task.tables, task.table.starts and task.slices.
 *
 * @param start where the unit starts when its partition has no stored offset; null: start.mode
 */
public record TaskUnit(TablePartition partition, ChangePosition start) {

  /** A whole table, from its stored offset or start.mode. */
  public static TaskUnit table(String table) {
    return new TaskUnit(new TablePartition(table), null);
  }

  /** A whole table whose snapshot was read in slices: its changes from version + 1 on. */
  public static TaskUnit afterSlices(String table, long snapshotVersion) {
    return new TaskUnit(
        new TablePartition(table), ChangePosition.InVersion.start(snapshotVersion + 1));
  }

  /** One slice of the snapshot of {@code version}. */
  public static TaskUnit slice(String table, long version, SnapshotSlice slice) {
    return new TaskUnit(
        new TablePartition(table, slice), ChangePosition.InSnapshot.start(version));
  }

  public String table() {
    return partition.table();
  }

  /** The slice this unit reads; the whole snapshot for a table. */
  public SnapshotSlice slice() {
    return partition.slice() == null ? SnapshotSlice.WHOLE : partition.slice();
  }

  /**
   * The settings of up to {@code maxTasks} tasks that read {@code units} between them, handed
   * out round robin, so that consecutive units (the slices of one snapshot) go to different
   * tasks.
   */
  public static List<Map<String, String>> taskConfigs(
      Map<String, String> settings, List<TaskUnit> units, int maxTasks) {
    int tasks = Math.min(maxTasks, units.size());
    List<List<TaskUnit>> groups = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      groups.add(new ArrayList<>());
    }
    for (int i = 0; i < units.size(); i++) {
      groups.get(i % tasks).add(units.get(i));
    }
    return groups.stream().map(group -> taskSettings(settings, group)).toList();
  }

  /**
   * The settings of a task that reads {@code units}: the connector's settings with the task-only
   * ones added.
   */
  static Map<String, String> taskSettings(Map<String, String> settings, List<TaskUnit> units) {
    List<String> tables = new ArrayList<>();
    List<String> starts = new ArrayList<>();
    List<String> slices = new ArrayList<>();
    for (TaskUnit unit : units) {
      if (unit.partition.slice() != null) {
        slices.add(unit.start.version() + ":" + unit.partition.slice().label() + ":" + unit.table());
      } else {
        tables.add(unit.table());
        if (unit.start != null) {
          // The stream starts at the version after the snapshot the slices read.
          starts.add((unit.start.version() - 1) + ":" + unit.table());
        }
      }
    }
    Map<String, String> task = new HashMap<>(settings);
    task.put(DeltaCdfSourceConfig.TASK_TABLES, String.join(",", tables));
    task.put(DeltaCdfSourceConfig.TASK_TABLE_STARTS, String.join(",", starts));
    task.put(DeltaCdfSourceConfig.TASK_SLICES, String.join(",", slices));
    return task;
  }

  /** The units a task's settings hand it, in the order given. */
  public static List<TaskUnit> of(DeltaCdfSourceConfig config) {
    Map<String, Long> afterSlices = new HashMap<>();
    for (String entry : config.getList(DeltaCdfSourceConfig.TASK_TABLE_STARTS)) {
      String[] parts = entry.split(":", 2);
      afterSlices.put(parts[1], Long.parseLong(parts[0]));
    }
    List<TaskUnit> units = new ArrayList<>();
    for (String table : config.taskTables()) {
      Long version = afterSlices.get(table);
      units.add(version == null ? table(table) : afterSlices(table, version));
    }
    for (String entry : config.getList(DeltaCdfSourceConfig.TASK_SLICES)) {
      String[] parts = entry.split(":", 3);
      units.add(slice(parts[2], Long.parseLong(parts[0]), SnapshotSlice.parse(parts[1])));
    }
    return units;
  }
}
