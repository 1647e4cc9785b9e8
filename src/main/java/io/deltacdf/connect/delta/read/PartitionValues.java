package io.deltacdf.connect.delta.read;

import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.delta.table.TableSchema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Map;

/**
 * Turns the strings of an action's {@code partitionValues} into typed column values.
 *
 * <p>Timestamps written without a zone ({@code 2024-03-11 11:00:00.123456}) are read as UTC: a
 * connector has no session time zone, and UTC is what Delta writers other than Spark use.
 */
public final class PartitionValues {

  private static final DateTimeFormatter LOCAL_TIMESTAMP =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter();

  private PartitionValues() {}

  /** Values for every column of {@code schema}; null for non-partition columns. */
  public static Object[] resolve(TableSchema schema, Map<String, String> partitionValues) {
    Object[] values = new Object[schema.columnCount()];
    for (int i = 0; i < values.length; i++) {
      if (schema.isPartitionColumn(i)) {
        String raw = partitionValues.get(schema.physicalName(i));
        values[i] = parse(schema.logical().fields().get(i).type(), raw);
      }
    }
    return values;
  }

  public static Object parse(FieldType type, String raw) {
    // Delta writes null partition values as null or as an empty string.
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    if (type instanceof FieldType.Decimal decimal) {
      return new BigDecimal(raw).setScale(decimal.scale());
    }
    if (!(type instanceof FieldType.Primitive primitive)) {
      throw new IllegalArgumentException("Partition column of non-primitive type " + type);
    }
    return switch (primitive.kind()) {
      case BOOLEAN -> Boolean.parseBoolean(raw);
      case BYTE -> Byte.parseByte(raw);
      case SHORT -> Short.parseShort(raw);
      case INT -> Integer.parseInt(raw);
      case LONG -> Long.parseLong(raw);
      case FLOAT -> Float.parseFloat(raw);
      case DOUBLE -> Double.parseDouble(raw);
      case STRING -> raw;
      case BINARY -> raw.getBytes(StandardCharsets.UTF_8);
      case DATE -> LocalDate.parse(raw);
      case TIMESTAMP -> parseTimestamp(raw);
      case TIMESTAMP_NTZ -> parseLocalTimestamp(raw);
      case VARIANT -> throw new IllegalArgumentException("Partition column of type variant");
    };
  }

  private static Instant parseTimestamp(String raw) {
    if (raw.indexOf('T') >= 0) {
      return Instant.parse(raw);
    }
    return LocalDateTime.parse(raw, LOCAL_TIMESTAMP).toInstant(ZoneOffset.UTC);
  }

  private static LocalDateTime parseLocalTimestamp(String raw) {
    if (raw.indexOf('T') >= 0) {
      return LocalDateTime.parse(raw.endsWith("Z") ? raw.substring(0, raw.length() - 1) : raw);
    }
    return LocalDateTime.parse(raw, LOCAL_TIMESTAMP);
  }
}
