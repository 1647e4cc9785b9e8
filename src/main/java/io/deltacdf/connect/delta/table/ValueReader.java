package io.deltacdf.connect.delta.table;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.MapValue;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.delta.variant.VariantColumns;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one value of a known type out of a Kernel column vector, as the Java value documented in
 * {@link FieldType}. Readers are built once per schema and applied per row, so no type dispatch
 * happens on the per-row path. They read the vectors of {@link TableSchema#physicalDataSchema},
 * where strings are binary ({@link Utf8Columns}).
 */
@FunctionalInterface
public interface ValueReader {

  /** Reads the value at {@code row}; callers check {@link ColumnVector#isNullAt} first. */
  Object read(ColumnVector vector, int row);

  default Object readNullable(ColumnVector vector, int row) {
    return vector.isNullAt(row) ? null : read(vector, row);
  }

  static ValueReader forType(FieldType type) {
    if (type instanceof FieldType.Primitive p) {
      return forPrimitive(p.kind());
    }
    if (type instanceof FieldType.Struct s) {
      return forStruct(s);
    }
    if (type instanceof FieldType.Array a) {
      return forArray(a);
    }
    if (type instanceof FieldType.MapType m) {
      return forMap(m);
    }
    if (type instanceof FieldType.Geospatial) {
      return ColumnVector::getBinary;
    }
    return ColumnVector::getDecimal;
  }

  private static ValueReader forPrimitive(FieldType.PrimitiveKind kind) {
    return switch (kind) {
      case BOOLEAN -> ColumnVector::getBoolean;
      case BYTE -> ColumnVector::getByte;
      case SHORT -> ColumnVector::getShort;
      case INT -> ColumnVector::getInt;
      case LONG -> ColumnVector::getLong;
      case FLOAT -> ColumnVector::getFloat;
      case DOUBLE -> ColumnVector::getDouble;
      case STRING -> Utf8Columns::read;
      case BINARY -> ColumnVector::getBinary;
      case DATE -> (v, r) -> LocalDate.ofEpochDay(v.getInt(r));
      case TIMESTAMP -> (v, r) -> instantOfMicros(v.getLong(r));
      case TIMESTAMP_NTZ ->
          (v, r) -> LocalDateTime.ofInstant(instantOfMicros(v.getLong(r)), ZoneOffset.UTC);
      case VARIANT -> VariantColumns::json;
    };
  }

  static Instant instantOfMicros(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  private static ValueReader forStruct(FieldType.Struct struct) {
    ValueReader[] fields =
        struct.fields().stream().map(f -> forType(f.type())).toArray(ValueReader[]::new);
    return (v, r) -> {
      Object[] values = new Object[fields.length];
      for (int i = 0; i < fields.length; i++) {
        values[i] = fields[i].readNullable(v.getChild(i), r);
      }
      return values;
    };
  }

  private static ValueReader forArray(FieldType.Array array) {
    ValueReader element = forType(array.elementType());
    return (v, r) -> {
      ArrayValue value = v.getArray(r);
      ColumnVector elements = value.getElements();
      List<Object> list = new ArrayList<>(value.getSize());
      for (int i = 0; i < value.getSize(); i++) {
        list.add(element.readNullable(elements, i));
      }
      return list;
    };
  }

  private static ValueReader forMap(FieldType.MapType map) {
    ValueReader key = forType(map.keyType());
    ValueReader val = forType(map.valueType());
    return (v, r) -> {
      MapValue value = v.getMap(r);
      ColumnVector keys = value.getKeys();
      ColumnVector values = value.getValues();
      Map<Object, Object> result = new LinkedHashMap<>();
      for (int i = 0; i < value.getSize(); i++) {
        result.put(key.read(keys, i), val.readNullable(values, i));
      }
      return result;
    };
  }
}
