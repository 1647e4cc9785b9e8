package io.deltacdf.connect.connector;

import io.deltacdf.connect.task.SnapshotSlices;
import io.deltacdf.connect.task.TaskUnit;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the connector's tasks read of every table, and the snapshots among them read in slices.
 *
 * @param units what tasks read, table by table, the slices of one snapshot one after another
 * @param sliced the snapshots whose slices are still being read
 */
public record TaskPlan(List<TaskUnit> units, List<SnapshotSlices.Sliced> sliced) {

  private static final Logger log = LoggerFactory.getLogger(TaskPlan.class);

  /** What tasks read of {@code tables} when the connector has {@code maxTasks} tasks. */
  public static TaskPlan of(SlicePlanner slices, List<String> tables, int maxTasks) {
    List<TaskUnit> units = new ArrayList<>();
    List<SnapshotSlices.Sliced> sliced = new ArrayList<>();
    for (String table : tables) {
      SlicePlanner.Plan plan = slices.plan(table, maxTasks);
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
    return new TaskPlan(List.copyOf(units), List.copyOf(sliced));
  }
}
