package io.deltacdf.connect.convert;

/** Two columns whose adjusted field names are the same. */
public final class FieldNameCollisionException extends IllegalArgumentException {
  FieldNameCollisionException(String first, String second, String fieldName) {
    super(
        "Columns '"
            + first
            + "' and '"
            + second
            + "' would both become field '"
            + fieldName
            + "' under field.name.adjustment=avro; rename one of the columns, or use"
            + " field.name.adjustment=none with a converter that accepts the names (e.g. JSON)");
  }
}
