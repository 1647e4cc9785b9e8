package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;

/** A configured key column the table does not have. */
public final class UnknownKeyColumnException extends IllegalArgumentException {
  UnknownKeyColumnException(String table, String column, FieldType.Struct schema) {
    super(
        "Key column '"
            + column
            + "' is not a column of table "
            + table
            + "; its columns are "
            + schema.fields().stream().map(FieldType.Field::name).toList());
  }
}
