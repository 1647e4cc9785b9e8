package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.LoggedSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A table's configured key columns, followed through renames under column mapping. Each configured
 * name stands for one column, known across schemas by its physical name, so it may name the column
 * as it was called before a rename or after it; the key field keeps the configured name, so keys
 * look the same on both sides of the rename.
 */
final class KeyColumns {

  /** A key field: its configured name and the index of its column in one schema. */
  record KeyField(String name, int column) {}

  /** The column a configured name stands for, and the earliest version known to have it. */
  private record Column(String physicalName, long since) {}

  private final String table;
  private final List<String> names;
  private final Map<String, Column> columns = new HashMap<>();

  KeyColumns(String table, List<String> names) {
    this.table = table;
    this.names = List.copyOf(names);
  }

  /**
   * Learns which column each name stands for (the newer schema that has a column of that name
   * decides) and checks that the latest schema still has it. Physical names are never reused, so a
   * key column the latest schema has is in every schema from its first on.
   *
   * @param ends the schema at the feed's start and the latest one, oldest first
   * @param wholeLog every schema the log holds, oldest first: read only for a name that neither end
   *     has (a name from before the start) and to tell where a key column was dropped
   * @throws UnknownKeyColumnException for a name no schema has
   * @throws KeyColumnDroppedException naming the first version without a key column
   */
  void resolve(List<LoggedSchema> ends, Supplier<List<LoggedSchema>> wholeLog) {
    FieldType.Struct latest = ends.get(ends.size() - 1).schema();
    List<LoggedSchema> log = null;
    for (String name : names) {
      boolean atEnds = ends.stream().anyMatch(end -> end.schema().indexOf(name) >= 0);
      if (!atEnds && log == null) {
        log = wholeLog.get();
      }
      Column column = columnNamed(name, atEnds ? ends : log);
      columns.put(name, column);
      if (indexOf(latest, column.physicalName()) < 0) {
        long dropped = droppedAt(column.physicalName(), log == null ? wholeLog.get() : log);
        throw new KeyColumnDroppedException(table, name, dropped);
      }
    }
  }

  /** The first version of {@code schemas} without the column after one with it. */
  private static long droppedAt(String physicalName, List<LoggedSchema> schemas) {
    boolean seen = false;
    for (LoggedSchema logged : schemas) {
      boolean has = indexOf(logged.schema(), physicalName) >= 0;
      if (seen && !has) {
        return logged.version();
      }
      seen |= has;
    }
    throw new IllegalStateException("The log never drops column " + physicalName);
  }

  /**
   * The key fields in {@code schema}, the schema of rows of {@code version}, in configured order. A
   * name not resolved yet stands for the column it names in this schema.
   *
   * @throws VariantKeyColumnException for a key column that is or holds a variant
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
      if (holdsVariant(schema.fields().get(index).type())) {
        throw new VariantKeyColumnException(table, name);
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

  private static boolean holdsVariant(FieldType type) {
    if (type instanceof FieldType.Primitive primitive) {
      return primitive.kind() == FieldType.PrimitiveKind.VARIANT;
    }
    if (type instanceof FieldType.Struct struct) {
      return struct.fields().stream().anyMatch(field -> holdsVariant(field.type()));
    }
    if (type instanceof FieldType.Array array) {
      return holdsVariant(array.elementType());
    }
    if (type instanceof FieldType.MapType map) {
      return holdsVariant(map.keyType()) || holdsVariant(map.valueType());
    }
    return false;
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
