package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/**
 * The Connect key and row schemas for one table schema, and the per-column converters, built once
 * per schema and applied to every row.
 */
final class SchemaMapping {

  static final String COMMIT_VERSION_FIELD = "_commit_version";
  static final String COMMIT_TIMESTAMP_FIELD = "_commit_timestamp";

  private final Schema rowSchema;
  private final List<Function<Object, Object>> converters;
  private final boolean metadataFields;
  private final Schema keySchema;
  private final Field[] keySources;

  /**
   * @param schemaBase the prefix of the schema names (see {@link SchemaNames})
   * @param optionalRow whether the row schema is optional, as an envelope's before and after are
   */
  SchemaMapping(
      String schemaBase,
      FieldType.Struct schema,
      List<KeyColumns.KeyField> keyFields,
      ConnectTypes types,
      boolean metadataFields,
      boolean optionalRow) {
    SchemaBuilder row = SchemaBuilder.struct().name(schemaBase + ".Value");
    converters = types.addFields(row, schema, schemaBase + ".Value");
    this.metadataFields = metadataFields;
    if (metadataFields) {
      row.field(ChangeType.COLUMN, Schema.STRING_SCHEMA)
          .field(COMMIT_VERSION_FIELD, Schema.INT64_SCHEMA)
          .field(COMMIT_TIMESTAMP_FIELD, Timestamp.SCHEMA);
    }
    rowSchema = optionalRow ? row.optional().build() : row.build();
    if (keyFields.isEmpty()) {
      keySchema = null;
      keySources = new Field[0];
      return;
    }
    SchemaBuilder key = SchemaBuilder.struct().name(schemaBase + ".Key");
    keySources = new Field[keyFields.size()];
    for (int i = 0; i < keyFields.size(); i++) {
      keySources[i] = rowSchema.fields().get(keyFields.get(i).column());
      // The configured name, not the column's name in this schema: keys stay the same across a
      // rename.
      key.field(types.fieldName(keyFields.get(i).name()), keySources[i].schema());
    }
    keySchema = key.build();
  }

  Schema rowSchema() {
    return rowSchema;
  }

  Schema keySchema() {
    return keySchema;
  }

  Struct row(ChangeRow change) {
    Object[] values = change.values();
    Struct out = new Struct(rowSchema);
    List<Field> fields = rowSchema.fields();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        out.put(fields.get(i), converters.get(i).apply(values[i]));
      }
    }
    if (metadataFields) {
      out.put(ChangeType.COLUMN, change.label());
      out.put(COMMIT_VERSION_FIELD, change.version());
      out.put(COMMIT_TIMESTAMP_FIELD, new java.util.Date(change.commitTimestampMs()));
    }
    return out;
  }

  /** The key struct, reusing the row struct's converted fields; null for key-less tables. */
  Struct key(Struct row) {
    if (keySchema == null) {
      return null;
    }
    Struct key = new Struct(keySchema);
    for (int i = 0; i < keySources.length; i++) {
      key.put(keySchema.fields().get(i), row.get(keySources[i]));
    }
    return key;
  }
}
