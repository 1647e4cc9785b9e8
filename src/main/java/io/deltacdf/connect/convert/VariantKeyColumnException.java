package io.deltacdf.connect.convert;

/**
 * A configured key column that is or holds a variant. A key must tell rows apart by equality, and
 * variants have none (Spark cannot compare, group or join on them either).
 */
public final class VariantKeyColumnException extends IllegalArgumentException {
  VariantKeyColumnException(String table, String column) {
    super(
        "Key column '"
            + column
            + "' of table "
            + table
            + " is or holds a variant, which cannot be a key: variants have no equality (Spark"
            + " cannot compare or group them either); choose other key columns, or none for"
            + " records without keys");
  }
}
