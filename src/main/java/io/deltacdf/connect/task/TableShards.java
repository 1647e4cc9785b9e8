package io.deltacdf.connect.task;

import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.List;

/** The shards of a table's change stream (table.shards), as units and as source partitions. */
public final class TableShards {

  private TableShards() {}

  /**
   * The units that read the table's changes in {@code count} shards (one whole-table unit for 1),
   * each from its stored offset, else from version {@code startVersion} (null: start.mode).
   */
  public static List<TaskUnit> units(String table, int count, Long startVersion) {
    List<TaskUnit> units = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      TableShard shard = new TableShard(i, count);
      units.add(
          startVersion == null
              ? TaskUnit.shard(table, shard)
              : TaskUnit.afterSlices(table, startVersion - 1, shard));
    }
    return units;
  }

  /**
   * Every partition the table's changes can have stored an offset under: the whole table's and each
   * shard's, of any count.
   */
  public static List<TablePartition> partitions(String table) {
    List<TablePartition> partitions = new ArrayList<>();
    for (int count = 1; count <= TableShard.MAX_COUNT; count++) {
      units(table, count, null).forEach(unit -> partitions.add(unit.partition()));
    }
    return partitions;
  }
}
