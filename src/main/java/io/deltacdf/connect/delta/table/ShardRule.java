package io.deltacdf.connect.delta.table;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.TableShard;
import java.util.ArrayList;
import java.util.List;

/**
 * Which change rows one shard of the table keeps: those whose key columns hash to it, and, while it
 * takes over from another shard count, only those its old partition had not sent ({@link
 * HandOver}). Each key column is known by its physical name in the latest schema, so a rename under
 * column mapping keeps every key's shard, as the records' keys follow the column too.
 *
 * @param names the configured key columns
 * @param physicalNames their physical names in the latest schema (the configured name where it has
 *     none)
 * @param handOver where the other shard count stood; null: nothing to take over
 */
public record ShardRule(
    TableShard shard, List<String> names, List<String> physicalNames, HandOver handOver) {

  public ShardRule {
    names = List.copyOf(names);
    physicalNames = List.copyOf(physicalNames);
  }

  /** A rule without a hand-over. */
  public ShardRule(TableShard shard, List<String> names, List<String> physicalNames) {
    this(shard, names, physicalNames, null);
  }

  /**
   * The rule of {@code shard} for the key columns {@code names}, as {@code latest} names them,
   * taking over from {@code handOver} (null: nothing to take over).
   */
  public static ShardRule of(
      TableShard shard, List<String> names, FieldType.Struct latest, HandOver handOver) {
    List<String> physical = new ArrayList<>(names.size());
    for (String name : names) {
      int index = latest.indexOf(name);
      physical.add(index < 0 ? name : latest.fields().get(index).physicalName());
    }
    return new ShardRule(shard, names, physical, handOver);
  }

  /**
   * Whether the row at {@code at} whose key hashes to {@code keyHash} is kept: of the shard, and
   * not sent by the old partition that owned its key before.
   */
  public boolean keeps(long keyHash, ChangePosition at) {
    return shard.owns(keyHash)
        && (handOver == null
            || !(at instanceof ChangePosition.InVersion inVersion)
            || handOver.sends(keyHash, inVersion));
  }

  /**
   * The indexes of the key columns in {@code schema}: by physical name, else (a version before the
   * column was added, or a table without column mapping) by name; -1 for a column it lacks, whose
   * value hashes as null.
   */
  public int[] columnsIn(FieldType.Struct schema) {
    int[] columns = new int[names.size()];
    for (int k = 0; k < columns.length; k++) {
      columns[k] = schema.indexOf(names.get(k));
      List<FieldType.Field> fields = schema.fields();
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).physicalName().equals(physicalNames.get(k))) {
          columns[k] = i;
          break;
        }
      }
    }
    return columns;
  }
}
