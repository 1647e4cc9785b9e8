package io.deltacdf.connect.delta.testing;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.LoggedSchema;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.testing.CanonicalRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads a feed to its end the way a caller would, and describes the rows canonically. */
public final class FeedReads {

  private FeedReads() {}

  /** A row and the schema of its batch. */
  public record ReadRow(ChangeRow row, FieldType.Struct schema) {
    public String canonical() {
      return CanonicalRows.canonical(row, schema);
    }

    /**
     * The row as seen through {@code target}, a later schema with added columns: Spark reads a
     * range with one schema, showing columns added after a row's version as null.
     */
    public String canonical(FieldType.Struct target) {
      Object[] values = new Object[target.fields().size()];
      for (int i = 0; i < values.length; i++) {
        int own = schema.indexOf(target.fields().get(i).name());
        values[i] = own < 0 ? null : row.values()[own];
      }
      return CanonicalRows.canonical(
          row.type(), row.version(), row.commitTimestampMs(), target, values);
    }
  }

  public static List<ReadRow> readAll(DeltaTable table, ChangePosition from, int maxRows) {
    List<ReadRow> rows = new ArrayList<>();
    try (DeltaChangeFeed feed = table.openFeed(from)) {
      ChangeBatch batch;
      while ((batch = feed.next(maxRows)) != null) {
        if (batch.rows().size() > maxRows) {
          throw new AssertionError("Batch of " + batch.rows().size() + " rows > " + maxRows);
        }
        for (ChangeRow row : batch.rows()) {
          rows.add(new ReadRow(row, batch.schema()));
        }
      }
    }
    return rows;
  }

  /** The table's columns at {@code version}, as the log's schema history says. */
  public static FieldType.Struct schemaAt(DeltaTable table, long version) {
    FieldType.Struct schema = null;
    for (LoggedSchema logged : table.loggedSchemas()) {
      if (logged.version() <= version) {
        schema = logged.schema();
      }
    }
    if (schema == null) {
      throw new AssertionError("The log holds no schema at or before version " + version);
    }
    return schema;
  }

  /** The table's columns at its latest version. */
  public static FieldType.Struct latestSchema(DeltaTable table) {
    return schemaAt(table, Long.MAX_VALUE);
  }

  /**
   * Canonical rows per version, seen through {@code target}, sorted so that equal multisets compare
   * equal.
   */
  public static Map<Long, List<String>> byVersion(List<ReadRow> rows, FieldType.Struct target) {
    Map<Long, List<String>> result = new TreeMap<>();
    for (ReadRow row : rows) {
      result
          .computeIfAbsent(row.row().version(), v -> new ArrayList<>())
          .add(row.canonical(target));
    }
    result.values().forEach(list -> list.sort(null));
    return result;
  }
}
