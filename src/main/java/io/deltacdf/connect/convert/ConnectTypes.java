package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Maps Delta types to Connect schemas and builds, once per type, the function that turns a reader
 * value into a Connect value. Dates become Connect {@code Date}, timestamps Connect {@code
 * Timestamp} (milliseconds; timestamp_ntz is read as UTC), decimals Connect {@code Decimal} with
 * the precision as a schema parameter.
 */
final class ConnectTypes {

  static final String PRECISION_PARAMETER = "connect.decimal.precision";

  private ConnectTypes() {}

  /** A Connect schema and the converter for values of it. */
  record Mapped(Schema schema, Function<Object, Object> converter) {}

  static Mapped map(FieldType type, boolean optional, String name) {
    if (type instanceof FieldType.Struct struct) {
      return mapStruct(struct, optional, name);
    }
    if (type instanceof FieldType.Array array) {
      Mapped element = map(array.elementType(), array.containsNull(), name + "_element");
      SchemaBuilder builder = SchemaBuilder.array(element.schema());
      return new Mapped(
          optional(builder, optional),
          value -> {
            List<?> list = (List<?>) value;
            List<Object> out = new ArrayList<>(list.size());
            for (Object item : list) {
              out.add(item == null ? null : element.converter().apply(item));
            }
            return out;
          });
    }
    if (type instanceof FieldType.MapType mapType) {
      Mapped key = map(mapType.keyType(), false, name + "_key");
      Mapped value = map(mapType.valueType(), mapType.valueContainsNull(), name + "_value");
      SchemaBuilder builder = SchemaBuilder.map(key.schema(), value.schema());
      return new Mapped(
          optional(builder, optional),
          raw -> {
            Map<?, ?> in = (Map<?, ?>) raw;
            Map<Object, Object> out = new LinkedHashMap<>();
            in.forEach(
                (k, v) ->
                    out.put(
                        key.converter().apply(k), v == null ? null : value.converter().apply(v)));
            return out;
          });
    }
    if (type instanceof FieldType.Decimal decimal) {
      SchemaBuilder builder =
          Decimal.builder(decimal.scale())
              .parameter(PRECISION_PARAMETER, Integer.toString(decimal.precision()));
      return new Mapped(
          optional(builder, optional),
          value -> ((BigDecimal) value).setScale(decimal.scale()));
    }
    return mapPrimitive(((FieldType.Primitive) type).kind(), optional);
  }

  private static Mapped mapStruct(FieldType.Struct struct, boolean optional, String name) {
    SchemaBuilder builder = SchemaBuilder.struct().name(name);
    List<Function<Object, Object>> converters = new ArrayList<>();
    for (FieldType.Field field : struct.fields()) {
      Mapped mapped = map(field.type(), field.nullable(), name + "_" + field.name());
      builder.field(field.name(), mapped.schema());
      converters.add(mapped.converter());
    }
    Schema schema = optional(builder, optional);
    return new Mapped(
        schema,
        value -> {
          Object[] values = (Object[]) value;
          Struct out = new Struct(schema);
          for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
              out.put(schema.fields().get(i), converters.get(i).apply(values[i]));
            }
          }
          return out;
        });
  }

  private static Mapped mapPrimitive(FieldType.PrimitiveKind kind, boolean optional) {
    switch (kind) {
      case BOOLEAN:
        return plain(SchemaBuilder.bool(), optional);
      case BYTE:
        return plain(SchemaBuilder.int8(), optional);
      case SHORT:
        return plain(SchemaBuilder.int16(), optional);
      case INT:
        return plain(SchemaBuilder.int32(), optional);
      case LONG:
        return plain(SchemaBuilder.int64(), optional);
      case FLOAT:
        return plain(SchemaBuilder.float32(), optional);
      case DOUBLE:
        return plain(SchemaBuilder.float64(), optional);
      case STRING:
        return plain(SchemaBuilder.string(), optional);
      case BINARY:
        return plain(SchemaBuilder.bytes(), optional);
      case DATE:
        return new Mapped(
            optional(Date.builder(), optional),
            value ->
                java.util.Date.from(
                    ((LocalDate) value).atStartOfDay().toInstant(ZoneOffset.UTC)));
      case TIMESTAMP:
        return new Mapped(
            optional(Timestamp.builder(), optional),
            value -> java.util.Date.from((Instant) value));
      case TIMESTAMP_NTZ:
        return new Mapped(
            optional(Timestamp.builder(), optional),
            value -> java.util.Date.from(((LocalDateTime) value).toInstant(ZoneOffset.UTC)));
      default:
        throw new IllegalArgumentException("Unknown type " + kind);
    }
  }

  private static Mapped plain(SchemaBuilder builder, boolean optional) {
    return new Mapped(optional(builder, optional), Function.identity());
  }

  private static Schema optional(SchemaBuilder builder, boolean optional) {
    return optional ? builder.optional().build() : builder.build();
  }
}
