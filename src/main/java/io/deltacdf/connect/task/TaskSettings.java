package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * The settings of one task, as the connector writes them and the task reads them back (Kafka's
 * MirrorSourceTaskConfig does the same): the connector's own settings, plus the units the task
 * reads, each under its index:
 *
 * <pre>
 * task.units=2
 * task.unit.0.table=s3a://bucket/lake/orders
 * task.unit.0.start.version=8        (a table whose snapshot was read in slices: its first version)
 * task.unit.1.table=s3a://bucket/lake/items
 * task.unit.1.slice=1/3              (a slice of the table's initial snapshot)
 * task.unit.1.snapshot.version=7     (the version of that snapshot)
 * task.unit.2.table=s3a://bucket/lake/items
 * task.unit.2.shard=0/4              (a shard of the table's changes, table.shards)
 * </pre>
 *
 * <p>A worker starts a task from the task settings it stored, possibly written by an older release
 * of the connector before the new one writes its own: a key may be added, but what is written here
 * must stay readable.
 */
public final class TaskSettings {

  /** How many units the task reads. */
  static final String UNITS = "task.units";

  /** Unit i's settings are task.unit.i.*, such as task.unit.0.table. */
  static final String UNIT_PREFIX = "task.unit.";

  /** The table's URI, exactly as configured (the table of its source partition). */
  static final String TABLE = "table";

  /** The slice of the initial snapshot a unit reads, as index/count; absent for a whole table. */
  static final String SLICE = "slice";

  /** The shard of the table's changes a unit reads, as index/count; absent for a whole table. */
  static final String SHARD = "shard";

  /** The version of the snapshot a slice reads. */
  static final String SNAPSHOT_VERSION = "snapshot.version";

  /** The first version whose changes a table reads, when its snapshot was read in slices. */
  static final String START_VERSION = "start.version";

  /** The task's index among the connector's tasks, which names its notifications bean. */
  static final String INDEX = "task.index";

  /**
   * Every table of the connector, as task.table.count and task.table.i, in the first task's
   * settings only: that task rejects signals naming a table the connector does not stream.
   */
  static final String TABLE_COUNT = "task.table.count";

  static final String TABLE_PREFIX = "task.table.";

  private TaskSettings() {}

  /**
   * {@code task}, the settings of the task at {@code index}; the first one also lists {@code
   * allTables} (empty: none to list).
   */
  public static Map<String, String> withIndex(
      Map<String, String> task, int index, List<String> allTables) {
    Map<String, String> indexed = new HashMap<>(task);
    indexed.put(INDEX, Integer.toString(index));
    if (index == 0 && !allTables.isEmpty()) {
      indexed.put(TABLE_COUNT, Integer.toString(allTables.size()));
      for (int i = 0; i < allTables.size(); i++) {
        indexed.put(TABLE_PREFIX + i, allTables.get(i));
      }
    }
    return indexed;
  }

  /** The task's index; 0 in settings written before tasks knew it. */
  public static int index(Map<String, ?> taskSettings) {
    Object index = taskSettings.get(INDEX);
    return index == null ? 0 : Integer.parseInt(index.toString().trim());
  }

  /** Every table of the connector when this is the first task, else null. */
  public static Set<String> allTables(Map<String, ?> taskSettings) {
    Object count = taskSettings.get(TABLE_COUNT);
    if (count == null) {
      return null;
    }
    Set<String> tables = new HashSet<>();
    for (int i = 0; i < Integer.parseInt(count.toString().trim()); i++) {
      tables.add(required(taskSettings, TABLE_PREFIX + i));
    }
    return tables;
  }

  /** The settings of a task that reads {@code units}: the connector's, with the task-only ones. */
  public static Map<String, String> forUnits(
      Map<String, String> connectorSettings, List<TaskUnit> units) {
    Map<String, String> task = new HashMap<>(connectorSettings);
    task.put(UNITS, Integer.toString(units.size()));
    for (int i = 0; i < units.size(); i++) {
      String prefix = UNIT_PREFIX + i + ".";
      TaskUnit unit = units.get(i);
      task.put(prefix + TABLE, unit.table());
      if (unit.partition().slice() != null) {
        task.put(prefix + SLICE, unit.partition().slice().label());
      }
      if (unit.partition().shard() != null) {
        task.put(prefix + SHARD, unit.partition().shard().label());
      }
      ChangePosition start = unit.start();
      if (start != null) {
        String key = start.inSnapshot() ? SNAPSHOT_VERSION : START_VERSION;
        task.put(prefix + key, Long.toString(start.version()));
      }
    }
    return task;
  }

  /** The units a task's settings hand it, in the order given; none in a connector's settings. */
  public static List<TaskUnit> units(Map<String, ?> taskSettings) {
    int count = count(taskSettings);
    List<TaskUnit> units = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      units.add(unit(taskSettings, UNIT_PREFIX + i + "."));
    }
    return units;
  }

  private static int count(Map<String, ?> taskSettings) {
    Object count = taskSettings.get(UNITS);
    try {
      return count == null ? 0 : Integer.parseInt(count.toString().trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(UNITS, count, "The connector writes a count of units here");
    }
  }

  private static TaskUnit unit(Map<String, ?> taskSettings, String prefix) {
    String table = required(taskSettings, prefix + TABLE);
    Object slice = taskSettings.get(prefix + SLICE);
    Object shard = taskSettings.get(prefix + SHARD);
    TablePartition partition =
        new TablePartition(
            table,
            slice == null ? null : SnapshotSlice.parse(slice.toString()),
            shard == null ? null : TableShard.parse(shard.toString()));
    if (partition.slice() != null) {
      long version = Long.parseLong(required(taskSettings, prefix + SNAPSHOT_VERSION));
      return new TaskUnit(partition, ChangePosition.InSnapshot.start(version));
    }
    Object start = taskSettings.get(prefix + START_VERSION);
    return start == null
        ? new TaskUnit(partition, null)
        : new TaskUnit(partition, ChangePosition.InVersion.start(Long.parseLong(start.toString())));
  }

  private static String required(Map<String, ?> taskSettings, String key) {
    Object value = taskSettings.get(key);
    if (value == null || value.toString().isBlank()) {
      throw new IllegalArgumentException(
          "The task settings have no " + key + ", which the connector writes for each unit");
    }
    return value.toString();
  }
}
