package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds, once per Delta type, the writer of its values as JSON text: what JsonConverter ({@code
 * schemas.enable=false}, {@code decimal.format=NUMERIC}) writes for the Connect value that {@link
 * ConnectTypes} makes of it. Dates are epoch days (Connect {@code Date}), timestamps epoch
 * milliseconds (Connect {@code Timestamp}) or epoch microseconds, structs objects with the adjusted
 * field names in column order, maps with string keys objects and other maps arrays of {@code [key,
 * value]} pairs.
 */
final class JsonValues {

  /** Appends one non-null value of a known type. */
  @FunctionalInterface
  interface Writer {
    void write(StringBuilder out, Object value);
  }

  private final TemporalPrecision precision;
  private final FieldNameAdjustment names;

  JsonValues(TemporalPrecision precision, FieldNameAdjustment names) {
    this.precision = precision;
    this.names = names;
  }

  /** A column's field name as it appears in the text, quoted and followed by a colon. */
  String fieldPrefix(String column) {
    StringBuilder out = new StringBuilder();
    JsonText.string(out, names.adjust(column));
    return out.append(':').toString();
  }

  Writer writer(FieldType type) {
    if (type instanceof FieldType.Struct struct) {
      return struct(struct);
    }
    if (type instanceof FieldType.Array array) {
      Writer element = writer(array.elementType());
      return (out, value) -> {
        out.append('[');
        boolean first = true;
        for (Object item : (List<?>) value) {
          if (!first) {
            out.append(',');
          }
          first = false;
          writeNullable(out, element, item);
        }
        out.append(']');
      };
    }
    if (type instanceof FieldType.MapType map) {
      return map(map);
    }
    if (type instanceof FieldType.Geospatial geospatial) {
      // As JsonConverter writes the struct: bytes in base64, then the SRID or null.
      Integer srid = GeospatialValues.srid(geospatial.crs());
      return (out, value) -> {
        out.append("{\"" + GeospatialValues.WKB + "\":");
        JsonText.bytes(out, (byte[]) value);
        out.append(",\"" + GeospatialValues.SRID + "\":").append(srid).append('}');
      };
    }
    if (type instanceof FieldType.Decimal decimal) {
      int scale = decimal.scale();
      return (out, value) -> JsonText.number(out, ((BigDecimal) value).setScale(scale));
    }
    return primitive(((FieldType.Primitive) type).kind());
  }

  /** The struct's members as an object, every member present ({@code null} when null). */
  private Writer struct(FieldType.Struct struct) {
    List<FieldType.Field> fields = struct.fields();
    String[] prefixes = new String[fields.size()];
    Writer[] writers = new Writer[fields.size()];
    Map<String, String> columnByField = new HashMap<>();
    for (int i = 0; i < fields.size(); i++) {
      FieldType.Field field = fields.get(i);
      String fieldName = names.adjust(field.name());
      String clash = columnByField.putIfAbsent(fieldName, field.name());
      if (clash != null) {
        throw new FieldNameCollisionException(clash, field.name(), fieldName);
      }
      prefixes[i] = fieldPrefix(field.name());
      writers[i] = writer(field.type());
    }
    return (out, value) -> {
      Object[] values = (Object[]) value;
      out.append('{');
      for (int i = 0; i < values.length; i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(prefixes[i]);
        writeNullable(out, writers[i], values[i]);
      }
      out.append('}');
    };
  }

  private Writer map(FieldType.MapType type) {
    Writer value = writer(type.valueType());
    boolean stringKeys =
        type.keyType() instanceof FieldType.Primitive key
            && key.kind() == FieldType.PrimitiveKind.STRING;
    if (stringKeys) {
      return (out, raw) -> {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) raw).entrySet()) {
          if (!first) {
            out.append(',');
          }
          first = false;
          JsonText.string(out, (String) entry.getKey());
          out.append(':');
          writeNullable(out, value, entry.getValue());
        }
        out.append('}');
      };
    }
    Writer key = writer(type.keyType());
    return (out, raw) -> {
      out.append('[');
      boolean first = true;
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) raw).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append('[');
        key.write(out, entry.getKey());
        out.append(',');
        writeNullable(out, value, entry.getValue());
        out.append(']');
      }
      out.append(']');
    };
  }

  private Writer primitive(FieldType.PrimitiveKind kind) {
    return switch (kind) {
      case BOOLEAN, BYTE, SHORT, INT, LONG -> (out, value) -> out.append(value);
      case FLOAT -> (out, value) -> JsonText.number(out, (Float) value);
      case DOUBLE -> (out, value) -> JsonText.number(out, (Double) value);
      case STRING, VARIANT -> (out, value) -> JsonText.string(out, (String) value);
      case BINARY -> (out, value) -> JsonText.bytes(out, (byte[]) value);
      case DATE -> (out, value) -> out.append(((LocalDate) value).toEpochDay());
      case TIMESTAMP -> timestamp();
      case TIMESTAMP_NTZ -> {
        Writer instant = timestamp();
        yield (out, value) -> instant.write(out, ((LocalDateTime) value).toInstant(ZoneOffset.UTC));
      }
    };
  }

  /** An instant as Connect {@code Timestamp} millis or Debezium's epoch micros. */
  private Writer timestamp() {
    if (precision == TemporalPrecision.MICROSECONDS) {
      return (out, value) -> out.append(ConnectTypes.epochMicros((Instant) value));
    }
    return (out, value) -> out.append(((Instant) value).toEpochMilli());
  }

  static void writeNullable(StringBuilder out, Writer writer, Object value) {
    if (value == null) {
      out.append("null");
    } else {
      writer.write(out, value);
    }
  }
}
