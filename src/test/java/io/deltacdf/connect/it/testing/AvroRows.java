package io.deltacdf.connect.it.testing;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A change record decoded from Avro as one string in {@link
 * io.deltacdf.connect.testing.CanonicalRows}' format, so that it compares with Spark's {@code
 * table_changes}. Guided by the writer schema: a decimal must arrive as a BigDecimal of the
 * schema's scale, a date as a LocalDate, a timestamp as an Instant (its logical types), else the
 * conversion fails. Timestamp-millis values compare with Spark's only where the table holds whole
 * milliseconds. An array of {@code io.confluent.connect.avro.MapEntry} records is a map with
 * non-string keys, as the Avro converters write it.
 */
public final class AvroRows {

  private static final String MAP_ENTRY = "io.confluent.connect.avro.MapEntry";

  /** temporal.precision.mode=microseconds: a long named by Connect, no Avro logical type. */
  private static final String MICRO_TIMESTAMP = "io.debezium.time.MicroTimestamp";

  private AvroRows() {}

  public static String canonical(ConsumerRecord<byte[], byte[]> record, GenericRecord value) {
    return "v"
        + TopicReader.longHeader(record, "_commit_version")
        + " @"
        + TopicReader.longHeader(record, "_commit_timestamp")
        + " "
        + change(record, value);
  }

  /** Change type and values only: {@code insert {id=1, name="ann"}}. */
  public static String change(ConsumerRecord<byte[], byte[]> record, GenericRecord value) {
    return TopicReader.header(record, "_change_type") + " " + struct(value);
  }

  /** The values of a struct: {@code {id=1, name="ann"}}. */
  public static String struct(GenericRecord record) {
    StringJoiner out = new StringJoiner(", ", "{", "}");
    for (Schema.Field field : record.getSchema().getFields()) {
      out.add(field.name() + "=" + value(field.schema(), record.get(field.pos())));
    }
    return out.toString();
  }

  private static String value(Schema schema, Object value) {
    if (value == null) {
      return "null";
    }
    LogicalType logical = schema.getLogicalType();
    return switch (schema.getType()) {
      case UNION -> value(nonNullBranch(schema), value);
      case RECORD -> struct(as(GenericRecord.class, value, schema));
      case ARRAY ->
          MAP_ENTRY.equals(schema.getElementType().getFullName())
              ? entries(schema.getElementType(), as(List.class, value, schema))
              : list(schema.getElementType(), as(List.class, value, schema));
      case MAP -> map(schema.getValueType(), as(Map.class, value, schema));
      // A variant's JSON text, which the canonical form marks as such.
      case STRING ->
          "io.debezium.data.Json".equals(schema.getProp("connect.name"))
              ? "json " + value
              : quoted(value.toString());
      case BYTES ->
          logical instanceof LogicalTypes.Decimal decimal
              ? decimal(as(BigDecimal.class, value, schema), decimal.getScale())
              : hex(as(ByteBuffer.class, value, schema));
      case INT ->
          logical instanceof LogicalTypes.Date
              ? as(LocalDate.class, value, schema).toString()
              : as(Integer.class, value, schema).toString();
      case LONG ->
          logical instanceof LogicalTypes.TimestampMillis
              ? micros(as(Instant.class, value, schema))
              : MICRO_TIMESTAMP.equals(schema.getProp("connect.name"))
                  ? as(Long.class, value, schema) + "us"
                  : as(Long.class, value, schema).toString();
      case FLOAT -> Float.toString(as(Float.class, value, schema));
      case DOUBLE -> Double.toString(as(Double.class, value, schema));
      case BOOLEAN -> as(Boolean.class, value, schema).toString();
      default -> throw new IllegalArgumentException("Unexpected Avro type " + schema);
    };
  }

  /** Connect's optional schemas are {@code ["null", T]} unions. */
  private static Schema nonNullBranch(Schema union) {
    List<Schema> types = union.getTypes();
    if (types.size() != 2 || types.get(0).getType() != Schema.Type.NULL) {
      throw new IllegalArgumentException("Expected a [\"null\", T] union: " + union);
    }
    return types.get(1);
  }

  private static String list(Schema element, List<?> items) {
    StringJoiner out = new StringJoiner(", ", "[", "]");
    items.forEach(item -> out.add(value(element, item)));
    return out.toString();
  }

  private static String map(Schema valueSchema, Map<?, ?> entries) {
    Map<String, String> sorted = new TreeMap<>();
    entries.forEach((k, v) -> sorted.put(quoted(k.toString()), value(valueSchema, v)));
    return sortedMap(sorted);
  }

  private static String entries(Schema entry, List<?> items) {
    Map<String, String> sorted = new TreeMap<>();
    for (Object item : items) {
      GenericRecord pair = as(GenericRecord.class, item, entry);
      sorted.put(
          value(entry.getField("key").schema(), pair.get("key")),
          value(entry.getField("value").schema(), pair.get("value")));
    }
    return sortedMap(sorted);
  }

  private static String sortedMap(Map<String, String> sorted) {
    StringJoiner out = new StringJoiner(", ", "{", "}");
    sorted.forEach((k, v) -> out.add(k + "->" + v));
    return out.toString();
  }

  private static String quoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  private static String hex(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return "0x" + HexFormat.of().formatHex(bytes);
  }

  private static String micros(Instant instant) {
    return Math.addExact(
            Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000)
        + "us";
  }

  /** The decimal must already carry the schema's scale: no rounding hides a wrong one. */
  private static String decimal(BigDecimal value, int scale) {
    if (value.scale() != scale) {
      throw new IllegalArgumentException(value + " does not have the schema's scale " + scale);
    }
    return value.toPlainString();
  }

  private static <T> T as(Class<T> expected, Object value, Schema schema) {
    if (!expected.isInstance(value)) {
      throw new IllegalArgumentException(
          "Value "
              + value
              + " of "
              + value.getClass().getName()
              + " where Avro schema "
              + schema
              + " needs "
              + expected.getSimpleName());
    }
    return expected.cast(value);
  }
}
