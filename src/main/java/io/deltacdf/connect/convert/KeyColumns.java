package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.LoggedSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A table's configured key columns, followed through renames under column mapping. Each
 * configured name stands for one column, known across schemas by its physical name, so it may
 * name the column as it was called before a rename or after it; the key field keeps the
 * configured name, so keys look the same on both sides of the rename.
 */
final class KeyColumns {

  /** A key field: its configured name and the index of its column in one schema. */
  record KeyField(String name, int column) {}

  /** The column a configured name stands for, and the first version that has it. */
  private record Column(String physicalName, long since) {}

  private final String table;
  private final List<String> names;
  private final Map<String, Column> columns = new HashMap<>();

  KeyColumns(String table, List<String> names) {
    this.table = table;
    this.names = List.copyOf(names);
  }

  /**
   * Learns which column each name stands for (the newest schema that has a column of that name
   * decides) and checks that no schema after the column's first drops it.
   *
   * @param read the schemas the feed reads rows with, oldest first
   * @param wholeLog every schema the log holds, oldest first: asked only for a name that is in
   *     none of {@code read}, i.e. one the column had before the feed's start
   * @throws UnknownKeyColumnException for a name no schema has
   * @throws KeyColumnDroppedException naming the first version without a key column
   */
  void resolve(List<LoggedSchema> read, Supplier<List<LoggedSchema>> wholeLog) {
    boolean allRead = names.stream().allMatch(name -> hasName(read, name));
    List<LoggedSchema> schemas = allRead ? read : wholeLog.get();
    for (String name : names) {
      Column column = columnNamed(name, schemas);
      columns.put(name, column);
      for (LoggedSchema logged : schemas) {
        if (logged.version() >= column.since()
            && indexOf(logged.schema(), column.physicalName()) < 0) {
          throw new KeyColumnDroppedException(table, name, logged.version());
        }
      }
    }
  }

  private static boolean hasName(List<LoggedSchema> schemas, String name) {
    return schemas.stream().anyMatch(logged -> logged.schema().indexOf(name) >= 0);
  }

  /**
   * The key fields in {@code schema}, the schema of rows of {@code version}, in configured order.
   * A name not resolved yet stands for the column it names in this schema.
   */
  List<KeyField> in(FieldType.Struct schema, long version) {
    List<KeyField> fields = new ArrayList<>(names.size());
    for (String name : names) {
      Column column = columns.get(name);
      if (column == null) {
        column = columnNamed(name, List.of(new LoggedSchema(version, schema)));
        columns.put(name, column);
      }
      int index = indexOf(schema, column.physicalName());
      if (index < 0 && version >= column.since()) {
        throw new KeyColumnDroppedException(table, name, version);
      }
      if (index < 0) {
        // Before the column existed, a column of the configured name is the best match.
        index = schema.indexOf(name);
      }
      if (index < 0) {
        throw new UnknownKeyColumnException(table, name, schema);
      }
      fields.add(new KeyField(name, index));
    }
    return fields;
  }

  private Column columnNamed(String name, List<LoggedSchema> schemas) {
    for (int i = schemas.size() - 1; i >= 0; i--) {
      FieldType.Struct schema = schemas.get(i).schema();
      int index = schema.indexOf(name);
      if (index >= 0) {
        String physicalName = schema.fields().get(index).physicalName();
        return new Column(physicalName, firstVersionWith(physicalName, schemas));
      }
    }
    throw new UnknownKeyColumnException(table, name, schemas.get(schemas.size() - 1).schema());
  }

  private static long firstVersionWith(String physicalName, List<LoggedSchema> schemas) {
    for (LoggedSchema logged : schemas) {
      if (indexOf(logged.schema(), physicalName) >= 0) {
        return logged.version();
      }
    }
    throw new IllegalStateException("No schema has column " + physicalName);
  }

  private static int indexOf(FieldType.Struct schema, String physicalName) {
    for (int i = 0; i < schema.fields().size(); i++) {
      if (schema.fields().get(i).physicalName().equals(physicalName)) {
        return i;
      }
    }
    return -1;
  }
}
