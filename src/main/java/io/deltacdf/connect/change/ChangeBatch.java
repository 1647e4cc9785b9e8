package io.deltacdf.connect.change;

import java.util.List;

/**
 * Consecutive change rows of one commit version (or of the initial snapshot), and so of one schema.
 *
 * @param schema the table schema in force at the rows' commit version (logical names); null when
 *     there are no rows
 * @param rows the rows, possibly none
 * @param after the feed position after this batch: every row before it has been returned
 * @param endsVersion whether the version (or snapshot) of the rows returned last is complete after
 *     this batch, which may be said by a batch of no rows when the version's remaining files turned
 *     out to be empty
 */
public record ChangeBatch(
    FieldType.Struct schema, List<ChangeRow> rows, ChangePosition after, boolean endsVersion) {
  public ChangeBatch {
    rows = List.copyOf(rows);
  }
}
