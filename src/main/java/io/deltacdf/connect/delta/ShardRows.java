package io.deltacdf.connect.delta;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.KeyHash;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.table.ShardRule;

/**
 * Keeps a feed's rows of its shard (and, while it takes over from another shard count, those not
 * sent before). Rows of other shards are read and dropped, and the feed's position moves past them
 * all the same, so the shard's offsets mean what a whole table's do.
 */
final class ShardRows {

  private final ShardRule rule;
  private FieldType.Struct lastSchema;
  private int[] lastColumns;

  private ShardRows(ShardRule rule) {
    this.rule = rule;
  }

  /** The filter of {@code rules}' shard; one that keeps every row when they name none. */
  static ShardRows of(ChangeRules rules) {
    return new ShardRows(rules.shard());
  }

  /** Whether {@link #keeps} needs the position of the row itself. */
  boolean handsOver() {
    return rule != null && rule.handOver() != null;
  }

  /**
   * Whether {@code row}, of {@code schema}, at {@code at} (needed only when it {@link #handsOver}),
   * belongs to the shard.
   */
  boolean keeps(FieldType.Struct schema, ChangeRow row, ChangePosition at) {
    if (rule == null) {
      return true;
    }
    // A batch's rows share one schema instance: the key columns are looked up once per schema.
    if (schema != lastSchema) {
      lastColumns = rule.columnsIn(schema);
      lastSchema = schema;
    }
    return rule.keeps(KeyHash.of(row.values(), lastColumns), at);
  }
}
