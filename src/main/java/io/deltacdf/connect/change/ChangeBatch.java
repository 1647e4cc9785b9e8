package io.deltacdf.connect.change;

import java.util.List;

/**
 * Consecutive change rows that share one schema.
 *
 * @param schema the table schema in force at the rows' commit version (logical names)
 * @param rows at least one row
 */
public record ChangeBatch(FieldType.Struct schema, List<ChangeRow> rows) {
  public ChangeBatch {
    rows = List.copyOf(rows);
  }

  public ChangePosition after() {
    return rows.get(rows.size() - 1).after();
  }
}
