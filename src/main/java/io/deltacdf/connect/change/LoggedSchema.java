package io.deltacdf.connect.change;

/**
 * A table schema as the log holds it.
 *
 * @param version the first version whose rows are read with this schema
 * @param schema the columns (logical names)
 */
public record LoggedSchema(long version, FieldType.Struct schema) {}
