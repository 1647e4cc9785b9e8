package io.deltacdf.connect.delta.read;

import io.delta.kernel.data.ColumnarBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.KeyHash;
import io.deltacdf.connect.delta.table.ShardRule;
import io.deltacdf.connect.delta.table.TableSchema;
import java.util.function.LongFunction;

/**
 * Whether a shard keeps a row of one file, decided from the row's key columns alone: a shard keeps
 * one row in N, so decoding only the key columns of the others spares most of the cost of reading
 * them. A key column that is a partition column takes its value from the file's partition values.
 */
final class ShardKeys {

  private final ShardRule rule;

  /** The position of a physical row of the file, which a hand-over decides by. */
  private final LongFunction<ChangePosition> positions;

  private final TableSchema schema;

  /** The key columns' indexes in the schema; -1 for one it lacks (hashed as null). */
  private final int[] columns;

  /** Per key column, its index in the batches; -1 for a partition column or one it lacks. */
  private final int[] ordinals;

  /**
   * A row of the schema's width holding the partition values and the current row's key values,
   * which is what {@link KeyHash#of} reads: the hash is the one of the fully decoded row.
   */
  private final Object[] keyRow;

  ShardKeys(
      ShardRule rule,
      LongFunction<ChangePosition> positions,
      TableSchema schema,
      Object[] partitionValues,
      int[] dataOrdinal) {
    this.rule = rule;
    this.positions = positions;
    this.schema = schema;
    this.columns = rule.columnsIn(schema.logical());
    this.ordinals = new int[columns.length];
    for (int k = 0; k < columns.length; k++) {
      ordinals[k] = columns[k] < 0 ? -1 : dataOrdinal[columns[k]];
    }
    this.keyRow = partitionValues.clone();
  }

  /** The values of row {@code rowInBatch} at least at the key columns, the others left out. */
  Object[] read(ColumnarBatch batch, int rowInBatch) {
    for (int k = 0; k < columns.length; k++) {
      if (ordinals[k] >= 0) {
        keyRow[columns[k]] =
            schema.reader(columns[k]).readNullable(batch.getColumnVector(ordinals[k]), rowInBatch);
      }
    }
    return keyRow;
  }

  /** Whether the row at {@code physicalRow} with these values (at least its keys') is kept. */
  boolean keeps(Object[] values, long physicalRow) {
    long hash = KeyHash.of(values, columns);
    return rule.keeps(hash, rule.handOver() == null ? null : positions.apply(physicalRow));
  }
}
