package io.deltacdf.connect.stream;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hands units to tasks as task settings, and reads them back in the task. */
public final class TaskConfigs {

  private TaskConfigs() {}

  /**
   * The settings of up to {@code maxTasks} tasks that read {@code units} between them, handed out
   * round robin, so that consecutive units (the slices of one snapshot) go to different tasks.
   */
  public static List<Map<String, String>> of(
      Map<String, String> settings, List<TaskUnit> units, int maxTasks) {
    int tasks = Math.min(maxTasks, units.size());
    List<List<TaskUnit>> groups = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      groups.add(new ArrayList<>());
    }
    for (int i = 0; i < units.size(); i++) {
      groups.get(i % tasks).add(units.get(i));
    }
    return groups.stream().map(group -> forUnits(settings, group)).toList();
  }

  /** The settings of a task that reads {@code units}: the connector's, with the task-only ones. */
  public static Map<String, String> forUnits(Map<String, String> settings, List<TaskUnit> units) {
    return DeltaCdfSourceConfig.withTaskUnits(
        settings, units.stream().map(TaskUnit::toMap).toList());
  }

  /** The units a task's settings hand it, in the order given. */
  public static List<TaskUnit> units(DeltaCdfSourceConfig config) {
    return config.taskUnits().stream().map(TaskUnit::fromMap).toList();
  }
}
