package io.deltacdf.connect.connector;

import io.deltacdf.connect.config.OperationsSettings;
import io.deltacdf.connect.task.TaskSettings;
import io.deltacdf.connect.task.TaskUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
    // The first task rejects signals naming no table of the connector: with signals, it knows them.
    boolean signals =
        settings
            .getOrDefault(OperationsSettings.SIGNAL_CHANNELS, "")
            .toLowerCase(Locale.ROOT)
            .contains(OperationsSettings.KAFKA_CHANNEL);
    List<String> tables =
        signals ? units.stream().map(TaskUnit::table).distinct().toList() : List.of();
    List<Map<String, String>> configs = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      configs.add(
          TaskSettings.withIndex(TaskSettings.forUnits(settings, groups.get(i)), i, tables));
    }
    return configs;
  }
}
