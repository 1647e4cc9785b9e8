package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Timestamp} in milliseconds or Debezium's {@code MicroTimestamp} (timestamp_ntz is read as UTC),
 * decimals Connect {@code Decimal} with the precision as a schema parameter, variants a string of
 * their JSON text named as Debezium names JSON ({@code io.debezium.data.Json}), geometries and
 * geographies Debezium's struct of WKB and SRID ({@link GeospatialValues}). Struct schemas are
 * named after their place in the table ({@code <base>.Value.address.geo}, {@code
 * <base>.Value.lines.element}), so that the names are stable, distinct and valid in Avro.
 */
final class ConnectTypes {

  static final String PRECISION_PARAMETER = "connect.decimal.precision";
  static final String MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";

  /** Debezium's name for JSON text, which Debezium-aware sinks write to JSON columns. */
  static final String JSON = "io.debezium.data.Json";

  private final TemporalPrecision precision;
  private final FieldNameAdjustment names;

  ConnectTypes(TemporalPrecision precision, FieldNameAdjustment names) {
    this.precision = precision;
    this.names = names;
  }

  /** A Connect schema and the converter for values of it. */
  record Mapped(Schema schema, Function<Object, Object> converter) {}

  /** The Connect field name of a column, after {@code field.name.adjustment}. */
  String fieldName(String column) {
    return names.adjust(column);
  }

  Mapped map(FieldType type, boolean optional, String name) {
    if (type instanceof FieldType.Struct struct) {
      return mapStruct(struct, optional, name);
    }
    if (type instanceof FieldType.Array array) {
      Mapped element = map(array.elementType(), array.containsNull(), name + ".element");
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
      Mapped key = map(mapType.keyType(), false, name + ".key");
      Mapped value = map(mapType.valueType(), mapType.valueContainsNull(), name + ".value");
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
    if (type instanceof FieldType.Geospatial geospatial) {
      Schema schema = GeospatialValues.schema(geospatial, optional);
      Integer srid = GeospatialValues.srid(geospatial.crs());
      return new Mapped(schema, value -> GeospatialValues.struct(schema, srid, (byte[]) value));
    }
    if (type instanceof FieldType.Decimal decimal) {
      SchemaBuilder builder =
          Decimal.builder(decimal.scale())
              .parameter(PRECISION_PARAMETER, Integer.toString(decimal.precision()));
      return new Mapped(
          optional(builder, optional), value -> ((BigDecimal) value).setScale(decimal.scale()));
    }
    return mapPrimitive(((FieldType.Primitive) type).kind(), optional);
  }

  private Mapped mapStruct(FieldType.Struct struct, boolean optional, String name) {
    SchemaBuilder builder = SchemaBuilder.struct().name(name);
    List<Function<Object, Object>> converters = addFields(builder, struct, name);
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

  /**
   * Adds a field per struct member to {@code builder}; returns their value converters.
   *
   * @throws FieldNameCollisionException when two members get the same field name
   */
  List<Function<Object, Object>> addFields(
      SchemaBuilder builder, FieldType.Struct struct, String schemaName) {
    List<Function<Object, Object>> converters = new ArrayList<>();
    Map<String, String> columnByField = new HashMap<>();
    Set<String> segments = new HashSet<>();
    for (FieldType.Field field : struct.fields()) {
      String fieldName = fieldName(field.name());
      String clash = columnByField.putIfAbsent(fieldName, field.name());
      if (clash != null) {
        throw new FieldNameCollisionException(clash, field.name(), fieldName);
      }
      // One name segment per level: joined with '_', column a_b and field b of column a would
      // both name a record Value_a_b, and Avro converters would give both the first one's schema.
      Mapped mapped =
          map(field.type(), field.nullable(), schemaName + "." + uniqueSegment(field, segments));
      builder.field(fieldName, mapped.schema());
      converters.add(mapped.converter());
    }
    return converters;
  }

  /**
   * The field's schema name segment, made unique among its siblings: columns {@code a-b} and {@code
   * a_b} keep their names when field names are not adjusted, but both clean to {@code a_b}; the
   * later one becomes {@code a_b_2} so that their nested schemas keep distinct names.
   */
  private static String uniqueSegment(FieldType.Field field, Set<String> taken) {
    String segment = SchemaNames.segment(field.name());
    String unique = segment;
    for (int n = 2; !taken.add(unique); n++) {
      unique = segment + "_" + n;
    }
    return unique;
  }

  private Mapped timestamp(boolean optional, Function<Object, Instant> toInstant) {
    if (precision == TemporalPrecision.MICROSECONDS) {
      return new Mapped(
          optional(SchemaBuilder.int64().name(MICRO_TIMESTAMP).version(1), optional),
          value -> epochMicros(toInstant.apply(value)));
    }
    return new Mapped(
        optional(Timestamp.builder(), optional),
        value -> java.util.Date.from(toInstant.apply(value)));
  }

  static long epochMicros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private Mapped mapPrimitive(FieldType.PrimitiveKind kind, boolean optional) {
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
      case VARIANT:
        return plain(SchemaBuilder.string().name(JSON).version(1), optional);
      case DATE:
        return new Mapped(
            optional(Date.builder(), optional),
            value ->
                java.util.Date.from(((LocalDate) value).atStartOfDay().toInstant(ZoneOffset.UTC)));
      case TIMESTAMP:
        return timestamp(optional, value -> (Instant) value);
      case TIMESTAMP_NTZ:
        return timestamp(optional, value -> ((LocalDateTime) value).toInstant(ZoneOffset.UTC));
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
