package io.deltacdf.connect.connector;

import io.deltacdf.connect.task.TaskSettings;
import io.deltacdf.connect.task.TaskUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hands units to tasks, round robin, each task's as the {@link TaskSettings} it reads. */
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
    return groups.stream().map(group -> TaskSettings.forUnits(settings, group)).toList();
  }
}
