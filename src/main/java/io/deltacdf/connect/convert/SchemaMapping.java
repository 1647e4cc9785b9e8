package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The Connect key and value schemas for one table schema, and the per-column converters, built
 * once per schema and applied to every row.
 */
final class SchemaMapping {

  private final ConnectTypes.Mapped value;
  private final Schema keySchema;
  private final int[] keyOrdinals;

  SchemaMapping(String table, FieldType.Struct schema, List<String> keyColumns) {
    String base = "io.deltacdf." + sanitize(table);
    this.value = ConnectTypes.map(schema, false, base + ".Value");
    if (keyColumns.isEmpty()) {
      keySchema = null;
      keyOrdinals = new int[0];
      return;
    }
    SchemaBuilder key = SchemaBuilder.struct().name(base + ".Key");
    keyOrdinals = new int[keyColumns.size()];
    for (int i = 0; i < keyColumns.size(); i++) {
      String column = keyColumns.get(i);
      int ordinal = schema.indexOf(column);
      if (ordinal < 0) {
        throw new UnknownKeyColumnException(table, column, schema);
      }
      keyOrdinals[i] = ordinal;
      key.field(column, value.schema().fields().get(ordinal).schema());
    }
    keySchema = key.build();
  }

  Schema valueSchema() {
    return value.schema();
  }

  Schema keySchema() {
    return keySchema;
  }

  Struct value(Object[] row) {
    return (Struct) value.converter().apply(row);
  }

  /** The key struct, reusing the value struct's converted fields. */
  Struct key(Struct valueStruct) {
    if (keySchema == null) {
      return null;
    }
    Struct key = new Struct(keySchema);
    for (int i = 0; i < keyOrdinals.length; i++) {
      key.put(keySchema.fields().get(i), valueStruct.get(value.schema().fields().get(keyOrdinals[i])));
    }
    return key;
  }

  private static String sanitize(String name) {
    String cleaned = name.replaceAll("[^A-Za-z0-9_]", "_");
    return Character.isDigit(cleaned.charAt(0)) ? "_" + cleaned : cleaned;
  }
}
