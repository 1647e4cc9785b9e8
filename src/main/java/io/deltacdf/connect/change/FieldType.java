package io.deltacdf.connect.change;

import java.util.List;

/**
 * The logical type of a column, independent of Delta Kernel and of Kafka Connect.
 *
 * <p>Java values carried in a {@link ChangeRow} for each type:
 *
 * <ul>
 *   <li>{@link Primitive}: Boolean, Byte, Short, Integer, Long, Float, Double, String, byte[],
 *       LocalDate (date), Instant (timestamp, microsecond precision), LocalDateTime (timestamp_ntz,
 *       microsecond precision), String (variant: the value's JSON text);
 *   <li>{@link Decimal}: BigDecimal with the type's scale;
 *   <li>{@link Struct}: Object[] aligned with the struct's fields;
 *   <li>{@link Array}: List of element values;
 *   <li>{@link MapType}: Map (insertion-ordered) of key to value;
 *   <li>{@link Geospatial}: byte[], the shape as Well-Known Binary (WKB).
 * </ul>
 *
 * A null column value is always Java {@code null}.
 */
public sealed interface FieldType {

  enum PrimitiveKind {
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    STRING,
    BINARY,
    DATE,
    TIMESTAMP,
    TIMESTAMP_NTZ,
    VARIANT
  }

  record Primitive(PrimitiveKind kind) implements FieldType {}

  record Decimal(int precision, int scale) implements FieldType {}

  record Struct(List<Field> fields) implements FieldType {
    public Struct {
      fields = List.copyOf(fields);
    }

    public int indexOf(String name) {
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).name().equals(name)) {
          return i;
        }
      }
      return -1;
    }
  }

  record Array(FieldType elementType, boolean containsNull) implements FieldType {}

  /**
   * A geometry (planar) or geography (on the sphere or spheroid) column.
   *
   * @param crs the coordinate reference system as Delta names it, e.g. {@code OGC:CRS84}
   */
  record Geospatial(boolean geography, String crs) implements FieldType {}

  record MapType(FieldType keyType, FieldType valueType, boolean valueContainsNull)
      implements FieldType {}

  /**
   * A named member of a struct.
   *
   * @param name the logical (user-visible) column name
   * @param physicalName the column's name in data files: under column mapping it stays the same
   *     when the column is renamed, so it tells one column across schemas; else the same as name
   */
  record Field(String name, FieldType type, boolean nullable, String physicalName) {
    public Field(String name, FieldType type, boolean nullable) {
      this(name, type, nullable, name);
    }
  }
}
