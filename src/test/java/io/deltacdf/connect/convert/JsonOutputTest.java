package io.deltacdf.connect.convert;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.Field;
import io.deltacdf.connect.change.FieldType.Primitive;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * output.format=json writes exactly the bytes that JsonConverter ({@code schemas.enable=false},
 * {@code decimal.format=NUMERIC}) writes for output.format=struct's records, key and value, and the
 * records agree in everything else (offsets, headers, timestamps, tombstones): over a Spark-written
 * table of every Delta type with awkward values, in both record formats, both temporal precisions,
 * with metadata fields and adjusted field names, from a snapshot and from a version; and over
 * hand-made rows with values Spark cannot write as easily (variants' JSON text, geometries with and
 * without an SRID).
 */
class JsonOutputTest {

  private static final Map<String, Object> OFFSET = Map.of("version", 42L, "table_id", "t-1");
  private static final Pattern ENVELOPE_TS_MS = Pattern.compile("\"ts_ms\":(-?\\d+)}$");

  @TempDir static Path dir;
  private static String path;

  @BeforeAll
  static void writeEveryTypeTable() {
    path = dir.resolve("every").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, flag BOOLEAN, tiny TINYINT, small SMALLINT,"
            + " count INT, ratio FLOAT, score DOUBLE, amount DECIMAL(38,18), price DECIMAL(5,2),"
            + " whole DECIMAL(10,0), name STRING, blob BINARY, born DATE, seen TIMESTAMP,"
            + " local TIMESTAMP_NTZ,"
            + " address STRUCT<street: STRING, geo: ARRAY<DOUBLE>, inner: STRUCT<x: INT>>,"
            + " tags ARRAY<STRING>, prices MAP<STRING, DECIMAL(10,3)>,"
            + " by_day MAP<DATE, ARRAY<STRUCT<k: STRING>>>, `odd name` STRING, doc VARIANT)"
            + " USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.columnMapping.mode'='name', 'delta.minReaderVersion'='2',"
            + " 'delta.minWriterVersion'='5')",
        path);
    sql(
        "INSERT INTO delta.`%s` VALUES"
            + " (1, true, -128Y, 32767S, -2147483648, float('NaN'), double('-Infinity'),"
            + " 0, 999.99, 0, 'ünïcödé ✓ 😀 \"q\" \\\\ /\\t\\n\\u0001\\u001f', X'00FF2A',"
            + " DATE'1969-12-31', TIMESTAMP'1969-07-20 20:17:40.123456',"
            + " TIMESTAMP_NTZ'2262-04-11 23:47:16.854775',"
            + " named_struct('street', 'Main', 'geo', array(1.5D, NULL), 'inner',"
            + " named_struct('x', 7)),"
            + " array('a', NULL, ''), map('k\"1', 1.5, 'k2', NULL),"
            + " map(DATE'2024-02-29', array(named_struct('k', 'v')), DATE'1900-01-01', NULL),"
            + " 'x', parse_json('{\"b\": [1, null, 2.50], \"a\": \"ü \\\\\"q\\\\\" 😀\"}')),"
            + " (2, false, 0Y, 0S, 0, -0.0F, 1.0E-300D, 0.000000000000000001, -0.01, 1234567890,"
            + " '', X'', DATE'9999-12-31', TIMESTAMP'2024-05-01 12:00:00', TIMESTAMP_NTZ'1900-01-01"
            + " 00:00:00.000001', named_struct('street', NULL, 'geo', NULL, 'inner', NULL),"
            + " array(), map(), map(), NULL, parse_json('null')),"
            + " (3, NULL, NULL, NULL, NULL, float('Infinity'), 3.4028234663852886E38D,"
            + " -12345678901234567890.123456789012345678, NULL, NULL, NULL, NULL, NULL, NULL,"
            + " NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
        path);
    sql("UPDATE delta.`%s` SET name = concat(name, '+'), score = 1e21 WHERE id < 3", path);
    sql("UPDATE delta.`%s` SET id = 30 WHERE id = 3", path);
    sql("DELETE FROM delta.`%s` WHERE id = 2", path);
  }

  static Stream<Arguments> settings() {
    List<Arguments> all = new ArrayList<>();
    for (String precision : List.of("milliseconds", "microseconds")) {
      all.add(Arguments.of(List.of("temporal.precision.mode", precision)));
      all.add(
          Arguments.of(
              List.of(
                  "temporal.precision.mode", precision,
                  "record.metadata.fields", "true",
                  "field.name.adjustment", "avro")));
      all.add(
          Arguments.of(List.of("temporal.precision.mode", precision, "record.format", "envelope")));
    }
    all.add(
        Arguments.of(
            List.of(
                "record.format", "envelope",
                "change.types", "insert,update_postimage,delete",
                "tombstones.on.delete", "false")));
    return all.stream();
  }

  @ParameterizedTest
  @MethodSource("settings")
  void sparkTableOfEveryTypeFromAVersion(List<String> settings) {
    compareOverFeed(settings, List.of("id"), InVersion.start(0));
  }

  @ParameterizedTest
  @MethodSource("settings")
  void sparkTableOfEveryTypeFromASnapshot(List<String> settings) {
    compareOverFeed(settings, List.of("id", "name"), ChangePosition.InSnapshot.start(1));
  }

  @Test
  void keyLessRowsFromAVersion() {
    compareOverFeed(List.of(), List.of(), InVersion.start(0));
  }

  @Test
  void heartbeats() {
    String table = "tab\"le ✓";
    ChangePosition position = new InVersion(42, 0, 0);
    SourceRecord struct =
        new HeartbeatRecords("beats", OutputFormat.STRUCT)
            .heartbeat(table, Map.of("table", table), position, OFFSET, 1234L);
    SourceRecord json =
        new HeartbeatRecords("beats", OutputFormat.JSON)
            .heartbeat(table, Map.of("table", table), position, OFFSET, 1234L);
    assertSameBytes(List.of(struct), List.of(json));
  }

  /** Values a Spark literal makes awkward: lone surrogates, extreme floats, wide decimals. */
  @Test
  void handMadeEdgeValues() {
    FieldType.Struct schema =
        new FieldType.Struct(
            List.of(
                new Field("id", new Primitive(PrimitiveKind.STRING), false),
                new Field("f", new Primitive(PrimitiveKind.FLOAT), true),
                new Field("d", new Primitive(PrimitiveKind.DOUBLE), true),
                new Field("dec", new FieldType.Decimal(38, 0), true),
                new Field("small", new FieldType.Decimal(9, 9), true),
                new Field("ts", new Primitive(PrimitiveKind.TIMESTAMP), true),
                new Field("doc", new Primitive(PrimitiveKind.VARIANT), true),
                new Field("shape", new FieldType.Geospatial(false, "OGC:CRS84"), true),
                new Field("place", new FieldType.Geospatial(true, "ENGCRS:local"), true),
                new Field(
                    "m",
                    new FieldType.MapType(
                        new Primitive(PrimitiveKind.LONG),
                        new FieldType.MapType(
                            new Primitive(PrimitiveKind.STRING),
                            new Primitive(PrimitiveKind.BINARY),
                            true),
                        true),
                    true)));
    Map<String, byte[]> inner = new LinkedHashMap<>();
    inner.put("\u2028\u007f\ud800", new byte[] {1, 2, 3, 4});
    inner.put("null", null);
    Map<Long, Object> outer = new LinkedHashMap<>();
    outer.put(Long.MIN_VALUE, inner);
    outer.put(0L, null);
    List<Object[]> rows =
        List.of(
            new Object[] {
              "\udbff\udfff\udc00",
              Float.MIN_VALUE,
              Double.MAX_VALUE,
              new BigDecimal("99999999999999999999999999999999999999"),
              new BigDecimal("1E-9"),
              Instant.parse("-1000-01-01T00:00:00.999999Z"),
              "{\"a\":\"\\u0001 ü\",\"b\":[1.0E20,\"NaN\"]}",
              new byte[] {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
              new byte[0],
              outer
            },
            new Object[] {
              "e",
              -Float.MAX_VALUE,
              -Double.MIN_VALUE,
              BigDecimal.ZERO,
              BigDecimal.ZERO,
              Instant.parse("1970-01-01T00:00:00.000001Z"),
              null,
              null,
              null,
              Map.of()
            });
    for (List<String> settings :
        List.of(
            List.of("temporal.precision.mode", "microseconds"),
            List.of("record.format", "envelope"))) {
      ConvertedFeed struct = converter(settings, "struct", List.of("id"), InVersion.start(1));
      ConvertedFeed json = converter(settings, "json", List.of("id"), InVersion.start(1));
      List<SourceRecord> structRecords = new ArrayList<>();
      List<SourceRecord> jsonRecords = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        ChangeRow row =
            new ChangeRow(
                i == 0 ? ChangeType.INSERT : ChangeType.DELETE,
                1,
                10,
                rows.get(i),
                new InVersion(1, 0, i + 1));
        structRecords.addAll(struct.convert(row, schema));
        jsonRecords.addAll(json.convert(row, schema));
      }
      structRecords.addAll(struct.endVersion());
      jsonRecords.addAll(json.endVersion());
      assertSameBytes(structRecords, jsonRecords);
    }
  }

  private static void compareOverFeed(
      List<String> settings, List<String> keys, ChangePosition start) {
    ConvertedFeed struct = converter(settings, "struct", keys, start);
    ConvertedFeed json = converter(settings, "json", keys, start);
    List<SourceRecord> structRecords = new ArrayList<>();
    List<SourceRecord> jsonRecords = new ArrayList<>();
    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    try (DeltaChangeFeed feed = table.openFeed(start)) {
      ChangeBatch batch;
      while ((batch = feed.next(1000)) != null) {
        for (ChangeRow row : batch.rows()) {
          structRecords.addAll(struct.convert(row, batch.schema()));
          jsonRecords.addAll(json.convert(row, batch.schema()));
        }
        if (batch.endsVersion()) {
          structRecords.addAll(struct.endVersion());
          jsonRecords.addAll(json.endVersion());
        }
      }
    } finally {
      table.close();
    }
    assertThat(structRecords).as("records").hasSizeGreaterThan(5);
    assertSameBytes(structRecords, jsonRecords);
  }

  private static ConvertedFeed converter(
      List<String> settings, String output, List<String> keys, ChangePosition start) {
    List<String> all = new ArrayList<>(settings);
    all.addAll(List.of("output.format", output));
    return new ConvertedFeed(
        new RecordConverter(
            "file:" + path,
            "every",
            "every",
            Map.of("table", "every"),
            keys,
            Settings.of(all.toArray(String[]::new))),
        start);
  }

  /**
   * Record by record: the JSON record's key and value are, as UTF-8 (what StringConverter sends),
   * byte for byte what JsonConverter makes of the struct record's; all else is equal. An envelope's
   * ts_ms (the wall clock at conversion) is taken from the JSON text first.
   */
  private static void assertSameBytes(List<SourceRecord> structs, List<SourceRecord> jsons) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "false", "decimal.format", "NUMERIC"), false);
    assertThat(jsons).hasSameSizeAs(structs);
    for (int i = 0; i < structs.size(); i++) {
      SourceRecord struct = structs.get(i);
      SourceRecord json = jsons.get(i);
      String which = "record " + i + " of " + structs.size();
      assertThat(json.sourceOffset()).as(which).isEqualTo(struct.sourceOffset());
      assertThat(json.sourcePartition()).as(which).isEqualTo(struct.sourcePartition());
      assertThat(json.topic()).as(which).isEqualTo(struct.topic());
      assertThat(json.timestamp()).as(which).isEqualTo(struct.timestamp());
      assertThat(json.headers()).as(which).isEqualTo(struct.headers());
      assertThat(text(json.key()))
          .as("key of %s", which)
          .isEqualTo(text(converter.fromConnectData("t", struct.keySchema(), struct.key())));
      Object structValue = struct.value();
      if (structValue instanceof Struct envelope && envelope.schema().field("ts_ms") != null) {
        Matcher tsMs = ENVELOPE_TS_MS.matcher((String) json.value());
        assertThat(tsMs.find()).as("ts_ms ends the envelope of %s", which).isTrue();
        envelope.put("ts_ms", Long.parseLong(tsMs.group(1)));
      }
      assertThat(text(json.value()))
          .as("value of %s", which)
          .isEqualTo(text(converter.fromConnectData("t", struct.valueSchema(), structValue)));
    }
  }

  /** JSON text, from our string or JsonConverter's bytes; null for a null key or value. */
  private static String text(Object value) {
    if (value == null) {
      return null;
    }
    return value instanceof byte[] bytes
        ? new String(bytes, StandardCharsets.UTF_8)
        : new String(((String) value).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }
}
