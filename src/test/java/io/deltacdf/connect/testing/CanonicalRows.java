package io.deltacdf.connect.testing;

import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.Geography;
import org.apache.spark.sql.types.Geometry;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VariantType;
import org.apache.spark.unsafe.types.VariantVal;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One string per change row, identical for equal rows whether they come from our reader or from
 * Spark's {@code table_changes}, so that multisets of rows can be compared as sorted string lists.
 *
 * <p>Format: {@code v<version> @<commit ms> <change type> {col=value, ...}} with columns in schema
 * order; strings quoted, decimals at the type's scale, binary as hex, dates ISO, timestamps (with
 * or without time zone) as epoch microseconds, floats via {@code toString} (NaN and -0.0 kept), map
 * entries sorted by key, variants as their JSON text (Spark's {@code to_json} for Spark's rows),
 * geometries and geographies as their WKB in hex. Our values are type-checked against the value
 * model of {@link FieldType}: a Long where an Integer belongs fails instead of printing the same
 * digits.
 */
public final class CanonicalRows {

  private static final List<String> CDF_COLUMNS =
      List.of("_change_type", "_commit_version", "_commit_timestamp");

  private CanonicalRows() {}

  /** A row of our reader, its values laid out by {@code schema}. */
  public static String canonical(
      ChangeType type,
      long version,
      long commitTimestampMs,
      FieldType.Struct schema,
      Object[] values) {
    return header(type.label(), version, commitTimestampMs) + ours(schema, values);
  }

  /** A row of our reader, read with {@code schema} (its batch's schema). */
  public static String canonical(ChangeRow row, FieldType.Struct schema) {
    return canonical(row.type(), row.version(), row.commitTimestampMs(), schema, row.values());
  }

  /**
   * A row of Spark's change feed: data columns, then {@code _change_type, _commit_version,
   * _commit_timestamp}.
   */
  public static String canonical(Row sparkRow) {
    StructType schema = sparkRow.schema();
    StringJoiner columns = new StringJoiner(", ", "{", "}");
    for (int i = 0; i < schema.fields().length; i++) {
      StructField field = schema.fields()[i];
      if (!CDF_COLUMNS.contains(field.name())) {
        columns.add(field.name() + "=" + spark(field.dataType(), sparkRow.get(i)));
      }
    }
    Instant commitTime = sparkRow.getAs("_commit_timestamp");
    return header(
            sparkRow.getAs("_change_type"),
            sparkRow.getAs("_commit_version"),
            commitTime.toEpochMilli())
        + columns;
  }

  private static String header(String label, long version, long commitTimestampMs) {
    return "v" + version + " @" + commitTimestampMs + " " + label + " ";
  }

  private static String ours(FieldType.Struct struct, Object[] values) {
    if (values.length != struct.fields().size()) {
      throw new IllegalArgumentException(
          values.length + " values for " + struct.fields().size() + " fields of " + struct);
    }
    StringJoiner out = new StringJoiner(", ", "{", "}");
    for (int i = 0; i < values.length; i++) {
      FieldType.Field field = struct.fields().get(i);
      out.add(field.name() + "=" + ours(field.type(), values[i]));
    }
    return out.toString();
  }

  private static String ours(FieldType type, Object value) {
    if (value == null) {
      return "null";
    }
    if (type instanceof FieldType.Primitive primitive) {
      return primitive(primitive.kind(), value);
    }
    if (type instanceof FieldType.Decimal decimal) {
      return decimal(as(BigDecimal.class, value, type), decimal.scale());
    }
    if (type instanceof FieldType.Struct struct) {
      return ours(struct, as(Object[].class, value, type));
    }
    if (type instanceof FieldType.Geospatial) {
      return "wkb " + binary(as(byte[].class, value, type));
    }
    if (type instanceof FieldType.Array array) {
      return list(as(List.class, value, type), element -> ours(array.elementType(), element));
    }
    FieldType.MapType map = (FieldType.MapType) type;
    return map(
        as(Map.class, value, type), k -> ours(map.keyType(), k), v -> ours(map.valueType(), v));
  }

  private static String primitive(FieldType.PrimitiveKind kind, Object value) {
    FieldType type = new FieldType.Primitive(kind);
    return switch (kind) {
      case BOOLEAN -> as(Boolean.class, value, type).toString();
      case BYTE -> as(Byte.class, value, type).toString();
      case SHORT -> as(Short.class, value, type).toString();
      case INT -> as(Integer.class, value, type).toString();
      case LONG -> as(Long.class, value, type).toString();
      case FLOAT -> Float.toString(as(Float.class, value, type));
      case DOUBLE -> Double.toString(as(Double.class, value, type));
      case STRING -> string(as(String.class, value, type));
      case BINARY -> binary(as(byte[].class, value, type));
      case DATE -> as(LocalDate.class, value, type).toString();
      case TIMESTAMP -> micros(as(Instant.class, value, type));
      case TIMESTAMP_NTZ -> micros(as(LocalDateTime.class, value, type).toInstant(ZoneOffset.UTC));
      case VARIANT -> "json " + as(String.class, value, type);
    };
  }

  private static String spark(DataType type, Object value) {
    if (value == null) {
      return "null";
    }
    if (type instanceof FloatType) {
      return Float.toString((Float) value);
    }
    if (type instanceof DoubleType) {
      return Double.toString((Double) value);
    }
    if (type instanceof BooleanType
        || type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType
        || type instanceof DateType) {
      return value.toString();
    }
    if (type instanceof StringType) {
      return string((String) value);
    }
    if (type instanceof BinaryType) {
      return binary((byte[]) value);
    }
    if (type instanceof TimestampType) {
      return micros((Instant) value);
    }
    if (type instanceof TimestampNTZType) {
      return micros(((LocalDateTime) value).toInstant(ZoneOffset.UTC));
    }
    if (type instanceof DecimalType decimal) {
      return decimal((BigDecimal) value, decimal.scale());
    }
    if (value instanceof Geometry geometry) {
      return "wkb " + binary(geometry.getBytes());
    }
    if (value instanceof Geography geography) {
      return "wkb " + binary(geography.getBytes());
    }
    if (type instanceof VariantType) {
      return "json " + SparkVariants.toJson((VariantVal) value);
    }
    if (type instanceof StructType struct) {
      Row row = (Row) value;
      StringJoiner out = new StringJoiner(", ", "{", "}");
      for (int i = 0; i < struct.fields().length; i++) {
        out.add(struct.fields()[i].name() + "=" + spark(struct.fields()[i].dataType(), row.get(i)));
      }
      return out.toString();
    }
    if (type instanceof ArrayType array) {
      List<?> elements =
          value instanceof scala.collection.Seq<?> seq
              ? CollectionConverters.asJava(seq)
              : (List<?>) value;
      return list(elements, element -> spark(array.elementType(), element));
    }
    if (type instanceof MapType map) {
      Map<?, ?> entries =
          value instanceof scala.collection.Map<?, ?> scalaMap
              ? CollectionConverters.asJava(scalaMap)
              : (Map<?, ?>) value;
      return map(entries, k -> spark(map.keyType(), k), v -> spark(map.valueType(), v));
    }
    throw new IllegalArgumentException("Unsupported Spark type " + type);
  }

  private static String string(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  private static String binary(byte[] value) {
    return "0x" + HexFormat.of().formatHex(value);
  }

  private static String micros(Instant instant) {
    long micros =
        Math.addExact(
            Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    return micros + "us";
  }

  /** Fails rather than rounds: a value that does not fit the type's scale is a reader bug. */
  private static String decimal(BigDecimal value, int scale) {
    return value.setScale(scale, RoundingMode.UNNECESSARY).toPlainString();
  }

  private static String list(List<?> elements, Function<Object, String> element) {
    StringJoiner out = new StringJoiner(", ", "[", "]");
    elements.forEach(e -> out.add(element.apply(e)));
    return out.toString();
  }

  private static String map(
      Map<?, ?> entries, Function<Object, String> key, Function<Object, String> value) {
    StringJoiner out = new StringJoiner(", ", "{", "}");
    Map<String, String> sorted = new TreeMap<>();
    entries.forEach((k, v) -> sorted.put(key.apply(k), value.apply(v)));
    sorted.forEach((k, v) -> out.add(k + "->" + v));
    return out.toString();
  }

  private static <T> T as(Class<T> expected, Object value, FieldType type) {
    if (!expected.isInstance(value)) {
      throw new IllegalArgumentException(
          "Value "
              + value
              + " of "
              + value.getClass().getName()
              + " where "
              + type
              + " needs "
              + expected.getSimpleName());
    }
    return expected.cast(value);
  }

  /**
   * Net count per row (with its version and commit time) of canonical rows {@code v<version> @<ms>
   * <type> {...}}; rows whose changes cancel out are left out.
   */
  public static Map<String, Integer> net(List<String> canonicalRows) {
    Map<String, Integer> net = new TreeMap<>();
    for (String row : canonicalRows) {
      String[] parts = row.split(" ", 4);
      ChangeType type = ChangeType.fromLabel(parts[2]);
      int sign = type == ChangeType.INSERT || type == ChangeType.UPDATE_POSTIMAGE ? 1 : -1;
      net.merge(parts[0] + " " + parts[1] + " " + parts[3], sign, Integer::sum);
    }
    net.values().removeIf(count -> count == 0);
    return net;
  }
}
