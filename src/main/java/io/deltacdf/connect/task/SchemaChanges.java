package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.FieldType;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs, once, each schema change a table's feed crosses, with the first version read under the new
 * schema (the change itself may be a metadata-only commit before it, which yields no rows), and
 * describes how the schema changed in the words of a log line.
 */
final class SchemaChanges {

  private static final Logger log = LoggerFactory.getLogger(SchemaChanges.class);

  private final String table;
  private FieldType.Struct schema;

  SchemaChanges(String table) {
    this.table = table;
  }

  /** Notes the schema of {@code batch}, a batch with rows, and logs it when it changed. */
  void read(ChangeBatch batch) {
    if (schema != null && !schema.equals(batch.schema())) {
      log.info(
          "Table {} has a new schema from version {} on: {}",
          table,
          batch.rows().get(0).version(),
          describe(schema, batch.schema()));
    }
    schema = batch.schema();
  }

  /** E.g. "added [email], dropped [phone], changed [age: INT -> LONG]"; a rename is both. */
  static String describe(FieldType.Struct before, FieldType.Struct after) {
    List<String> added = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    for (FieldType.Field field : after.fields()) {
      int old = before.indexOf(field.name());
      if (old < 0) {
        added.add(field.name());
      } else if (!before.fields().get(old).equals(field)) {
        changed.add(
            field.name() + ": " + render(before.fields().get(old)) + " -> " + render(field));
      }
    }
    for (FieldType.Field field : before.fields()) {
      if (after.indexOf(field.name()) < 0) {
        dropped.add(field.name());
      }
    }
    List<String> parts = new ArrayList<>();
    if (!added.isEmpty()) {
      parts.add("added " + added);
    }
    if (!dropped.isEmpty()) {
      parts.add("dropped " + dropped);
    }
    if (!changed.isEmpty()) {
      parts.add("changed " + changed);
    }
    return parts.isEmpty() ? "column order changed" : String.join(", ", parts);
  }

  private static String render(FieldType.Field field) {
    FieldType type = field.type();
    String name =
        type instanceof FieldType.Primitive primitive
            ? primitive.kind().name()
            : type instanceof FieldType.Decimal decimal
                ? "DECIMAL(" + decimal.precision() + "," + decimal.scale() + ")"
                : type.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT);
    return name + (field.nullable() ? "" : " NOT NULL");
  }
}
