package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.Field;
import io.deltacdf.connect.change.FieldType.Primitive;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import io.deltacdf.connect.config.EnumSettings;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every Delta type survives Kafka's JsonConverter with schemas: what a consumer decodes equals what
 * the connector produced, in both record formats and both timestamp precisions.
 */
class JsonRoundTripTest {

  private static FieldType primitive(PrimitiveKind kind) {
    return new Primitive(kind);
  }

  private static final FieldType.Struct ADDRESS =
      new FieldType.Struct(
          List.of(
              new Field("street", primitive(PrimitiveKind.STRING), true),
              new Field("geo", new FieldType.Array(primitive(PrimitiveKind.DOUBLE), true), true)));

  private static final FieldType.Struct SCHEMA =
      new FieldType.Struct(
          List.of(
              new Field("id", primitive(PrimitiveKind.LONG), false),
              new Field("flag", primitive(PrimitiveKind.BOOLEAN), true),
              new Field("tiny", primitive(PrimitiveKind.BYTE), true),
              new Field("small", primitive(PrimitiveKind.SHORT), true),
              new Field("count", primitive(PrimitiveKind.INT), true),
              new Field("ratio", primitive(PrimitiveKind.FLOAT), true),
              new Field("score", primitive(PrimitiveKind.DOUBLE), true),
              new Field("amount", new FieldType.Decimal(38, 18), true),
              new Field("price", new FieldType.Decimal(5, 2), true),
              new Field("name", primitive(PrimitiveKind.STRING), true),
              new Field("blob", primitive(PrimitiveKind.BINARY), true),
              new Field("born", primitive(PrimitiveKind.DATE), true),
              new Field("seen", primitive(PrimitiveKind.TIMESTAMP), true),
              new Field("local", primitive(PrimitiveKind.TIMESTAMP_NTZ), true),
              new Field("address", ADDRESS, true),
              new Field("tags", new FieldType.Array(primitive(PrimitiveKind.STRING), true), true),
              new Field(
                  "by_day",
                  new FieldType.MapType(
                      primitive(PrimitiveKind.DATE), new FieldType.Decimal(10, 3), true),
                  true),
              new Field(
                  "nested",
                  new FieldType.MapType(
                      primitive(PrimitiveKind.STRING), new FieldType.Array(ADDRESS, true), true),
                  true)));

  private static Object[] fullRow() {
    Map<LocalDate, BigDecimal> byDay = new LinkedHashMap<>();
    byDay.put(LocalDate.of(1900, 1, 1), new BigDecimal("-1234567.891"));
    byDay.put(LocalDate.of(2024, 2, 29), null);
    Map<String, List<Object[]>> nested = new LinkedHashMap<>();
    nested.put("home", Arrays.asList(new Object[] {"Main St", List.of(1.5, -2.25)}, null));
    nested.put("none", List.of());
    return new Object[] {
      Long.MIN_VALUE,
      true,
      (byte) -128,
      (short) 32767,
      Integer.MIN_VALUE,
      1.25f,
      // Not -0.0: JsonConverter reads floating point numbers as BigDecimal, which has no -0.
      -1.5e300,
      new BigDecimal("12345678901234567890.123456789012345678"),
      new BigDecimal("-999.99"),
      "ünïcödé ✓",
      new byte[] {0, -1, 42},
      LocalDate.of(1969, 12, 31),
      Instant.parse("1969-07-20T20:17:40.123456Z"),
      LocalDateTime.parse("2262-04-11T23:47:16.854775"),
      new Object[] {null, Arrays.asList(0.5, null)},
      Arrays.asList("a", null, ""),
      byDay,
      nested
    };
  }

  private static Object[] nullRow() {
    Object[] row = new Object[SCHEMA.fields().size()];
    row[0] = 0L;
    return row;
  }

  @ParameterizedTest
  @EnumSource(TemporalPrecision.class)
  void everyTypeRoundTripsInRows(TemporalPrecision precision) {
    roundTrip(RecordFormat.ROW, precision);
  }

  @ParameterizedTest
  @EnumSource(TemporalPrecision.class)
  void everyTypeRoundTripsInEnvelopes(TemporalPrecision precision) {
    roundTrip(RecordFormat.ENVELOPE, precision);
  }

  private static void roundTrip(RecordFormat format, TemporalPrecision precision) {
    RecordSettings settings =
        Settings.of(
            "record.format", EnumSettings.valueOf(format),
            "temporal.precision.mode", EnumSettings.valueOf(precision));
    ConvertedFeed converter =
        new ConvertedFeed(
            new RecordConverter(
                "file:/t/every", "every", "every", Map.of(), List.of("id"), settings),
            InVersion.start(1));
    List<SourceRecord> records = new ArrayList<>();
    records.addAll(
        converter.convert(
            new ChangeRow(ChangeType.INSERT, 1, 10, fullRow(), new InVersion(1, 0, 1)), SCHEMA));
    records.addAll(
        converter.convert(
            new ChangeRow(ChangeType.DELETE, 1, 10, nullRow(), InVersion.start(2)), SCHEMA));
    assertThat(records).hasSize(3);

    JsonConverter json = new JsonConverter();
    json.configure(Map.of("schemas.enable", "true"), false);
    for (SourceRecord record : records) {
      byte[] bytes = json.fromConnectData("every", record.valueSchema(), record.value());
      SchemaAndValue decoded = json.toConnectData("every", bytes);
      assertThat(decoded.schema()).isEqualTo(record.valueSchema());
      assertThat(decoded.value()).isEqualTo(record.value());
    }
    Struct first = (Struct) records.get(0).value();
    Struct row = format == RecordFormat.ROW ? first : first.getStruct("after");
    Schema seen = row.schema().field("seen").schema();
    if (precision == TemporalPrecision.MICROSECONDS) {
      assertThat(row.getInt64("seen")).isEqualTo(-14_182_939_876_544L);
    } else {
      assertThat(seen.name()).isEqualTo(org.apache.kafka.connect.data.Timestamp.LOGICAL_NAME);
      assertThat(row.get("seen")).isEqualTo(new java.util.Date(-14_182_939_877L));
    }
    assertThat(row.get("amount"))
        .isEqualTo(new BigDecimal("12345678901234567890.123456789012345678"));
    assertThat(row.schema().field("amount").schema().parameters())
        .containsEntry("connect.decimal.precision", "38")
        .containsEntry("scale", "18");
  }
}
