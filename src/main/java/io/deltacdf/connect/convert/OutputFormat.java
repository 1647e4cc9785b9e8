package io.deltacdf.connect.convert;

/** How a record's key and value reach the worker's converters. */
public enum OutputFormat {
  /** Connect structs with schemas, for any converter (JSON, Avro, Protobuf, ...). */
  STRUCT,
  /**
   * JSON text as Java strings, for {@code StringConverter}: the bytes JsonConverter with {@code
   * schemas.enable=false} and {@code decimal.format=NUMERIC} would write for the struct form,
   * written straight from the row's values.
   */
  JSON
}
