package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition.InSnapshot;
import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.SignalState;
import io.deltacdf.connect.offset.TablePartition;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;
import org.junit.jupiter.api.Test;

/**
 * Pins the bytes of the records a fixed feed becomes, in each record format: topic, partition,
 * source partition and offset, timestamp, key and value through JsonConverter with their schemas,
 * and every header's schema and bytes through SimpleHeaderConverter. A change to how records are
 * built must leave this output as it is, byte for byte.
 *
 * <p>The expected output is {@code src/test/resources/golden/record-bytes.txt}; after a deliberate
 * change to the records, write it again with {@code -Drecord.bytes.update=true} and review the
 * diff.
 */
class RecordBytesTest {

  private static final Path GOLDEN = Path.of("src/test/resources/golden/record-bytes.txt");

  private static FieldType primitive(PrimitiveKind kind) {
    return new FieldType.Primitive(kind);
  }

  private static final FieldType.Struct ADDRESS =
      new FieldType.Struct(
          List.of(
              new FieldType.Field("street", primitive(PrimitiveKind.STRING), true),
              new FieldType.Field("zip", primitive(PrimitiveKind.INT), true)));

  /** Every kind of column a reader gives values of, and a name field.name.adjustment changes. */
  private static final FieldType.Struct SCHEMA =
      new FieldType.Struct(
          List.of(
              new FieldType.Field("id", primitive(PrimitiveKind.LONG), false),
              new FieldType.Field("name", primitive(PrimitiveKind.STRING), true),
              new FieldType.Field("flag", primitive(PrimitiveKind.BOOLEAN), true),
              new FieldType.Field("tiny", primitive(PrimitiveKind.BYTE), true),
              new FieldType.Field("small", primitive(PrimitiveKind.SHORT), true),
              new FieldType.Field("count", primitive(PrimitiveKind.INT), true),
              new FieldType.Field("ratio", primitive(PrimitiveKind.FLOAT), true),
              new FieldType.Field("score", primitive(PrimitiveKind.DOUBLE), true),
              new FieldType.Field("balance", new FieldType.Decimal(12, 2), true),
              new FieldType.Field("blob", primitive(PrimitiveKind.BINARY), true),
              new FieldType.Field("birthday", primitive(PrimitiveKind.DATE), true),
              new FieldType.Field("updated-at", primitive(PrimitiveKind.TIMESTAMP), true),
              new FieldType.Field("local", primitive(PrimitiveKind.TIMESTAMP_NTZ), true),
              new FieldType.Field("doc", primitive(PrimitiveKind.VARIANT), true),
              new FieldType.Field("address", ADDRESS, true),
              new FieldType.Field(
                  "tags", new FieldType.Array(primitive(PrimitiveKind.STRING), true), true),
              new FieldType.Field(
                  "scores",
                  new FieldType.MapType(
                      primitive(PrimitiveKind.STRING), primitive(PrimitiveKind.LONG), true),
                  true)));

  private static Object[] values(long id, String name) {
    Map<String, Long> scores = new LinkedHashMap<>();
    scores.put("a", id);
    scores.put("b", null);
    List<String> tags = new ArrayList<>();
    tags.add("t" + id);
    tags.add(null);
    return new Object[] {
      id,
      name,
      id % 2 == 0,
      (byte) id,
      (short) (id * 3),
      (int) id * 7,
      id / 4.0f,
      id / 3.0,
      new BigDecimal(id + ".5"),
      new byte[] {1, (byte) id, -1},
      LocalDate.of(1990, 1, 1).plusDays(id),
      Instant.ofEpochSecond(1_700_000_000L + id, 123_456_789),
      LocalDateTime.of(2024, 2, 29, 23, 59, 58, 987_654_000),
      "{\"k\":" + id + "}",
      new Object[] {"Main St " + id, null},
      tags,
      scores
    };
  }

  /** A row with every nullable column null. */
  private static Object[] sparse(long id) {
    Object[] values = new Object[SCHEMA.fields().size()];
    values[0] = id;
    return values;
  }

  /** A snapshot, then three versions: inserts, an update, a delete, a custom change type. */
  private static List<ChangeRow> feed() {
    List<ChangeRow> rows = new ArrayList<>();
    rows.add(row(ChangeType.INSERT, 3, values(1, "snap"), new InSnapshot(3, "part-0.parquet", 1)));
    rows.add(row(ChangeType.INSERT, 3, sparse(2), new InSnapshot(3, "part-0.parquet", 2)));
    rows.add(row(ChangeType.INSERT, 4, values(3, "ann"), new InVersion(4, 0, 1)));
    rows.add(row(ChangeType.INSERT, 4, values(4, "bob"), new InVersion(4, 1, 7)));
    rows.add(row(ChangeType.INSERT, 4, values(5, "cy"), InVersion.start(5)));
    rows.add(row(ChangeType.UPDATE_PREIMAGE, 5, values(3, "ann"), new InVersion(5, 0, 1)));
    rows.add(row(ChangeType.UPDATE_POSTIMAGE, 5, values(3, "anne"), InVersion.start(6)));
    rows.add(row(ChangeType.DELETE, 6, values(4, "bob"), new InVersion(6, 0, 1)));
    rows.add(
        new ChangeRow(
            ChangeType.CUSTOM, "merge_marker", 6, 6_000, values(5, "cy"), InVersion.start(7)));
    return rows;
  }

  private static ChangeRow row(
      ChangeType type,
      long version,
      Object[] values,
      io.deltacdf.connect.change.ChangePosition at) {
    return new ChangeRow(type, version, 1_000 * version + 17, values, at);
  }

  /** The configurations whose records are pinned, by name. */
  private static Map<String, RecordSettings> configurations() {
    Map<String, RecordSettings> configurations = new LinkedHashMap<>();
    configurations.put("row", Settings.of());
    configurations.put(
        "row, metadata fields, tombstones, commit timestamps, microseconds, avro names",
        Settings.of(
            "record.metadata.fields", "true",
            "tombstones.on.delete", "true",
            "record.timestamp", "commit",
            "temporal.precision.mode", "microseconds",
            "field.name.adjustment", "avro"));
    configurations.put("envelope", Settings.of("record.format", "envelope"));
    return configurations;
  }

  @Test
  void recordsKeepTheirBytes() throws IOException {
    // An envelope's own ts_ms is the time it was made: the one value that is not the feed's.
    String output = render().replaceAll("(\"op\":\"[a-z]\",\"ts_ms\":)\\d+", "$1<now>");
    if (Boolean.getBoolean("record.bytes.update")) {
      Files.createDirectories(GOLDEN.getParent());
      Files.writeString(GOLDEN, output, StandardCharsets.UTF_8);
    }
    assertThat(output).isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
  }

  private static String render() {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, RecordSettings> configuration : configurations().entrySet()) {
      for (boolean withIdentity : new boolean[] {false, true}) {
        out.append("== ")
            .append(configuration.getKey())
            .append(withIdentity ? ", offsets with the table's identity" : "")
            .append('\n');
        for (SourceRecord record : convert(configuration.getValue(), withIdentity)) {
          describe(record, out);
        }
      }
    }
    return out.toString();
  }

  private static List<SourceRecord> convert(RecordSettings settings, boolean withIdentity) {
    String table = "file:/lake/orders";
    RecordConverter converter =
        new RecordConverter(
            table,
            "orders",
            "cdc.orders",
            new TablePartition(table).toMap(),
            List.of("id"),
            settings);
    if (withIdentity) {
      TableIdentity identity = new TableIdentity("4f1c-table", null);
      converter.offsetsBy(position -> OffsetCodec.toMap(position, identity, "", SignalState.NONE));
    }
    ConvertedFeed feed = new ConvertedFeed(converter, InSnapshot.start(3));
    List<SourceRecord> records = new ArrayList<>();
    long version = -1;
    for (ChangeRow row : feed()) {
      if (row.type() == ChangeType.CUSTOM && settings.format() == RecordFormat.ENVELOPE) {
        continue; // an envelope has no op for it
      }
      if (version >= 0 && row.version() != version) {
        records.addAll(feed.endVersion());
      }
      version = row.version();
      records.addAll(feed.convert(row, SCHEMA));
    }
    records.addAll(feed.endVersion());
    return records;
  }

  private static void describe(SourceRecord record, StringBuilder out) {
    JsonConverter keys = json(true, true);
    JsonConverter values = json(false, true);
    JsonConverter offsets = json(false, false);
    SimpleHeaderConverter headers = new SimpleHeaderConverter();
    headers.configure(Map.of());
    String topic = record.topic();
    out.append("topic ").append(topic).append(" partition ").append(record.kafkaPartition());
    out.append(" timestamp ").append(record.timestamp()).append('\n');
    out.append("  source partition ")
        .append(text(offsets.fromConnectData(topic, null, record.sourcePartition())))
        .append('\n');
    out.append("  source offset ")
        .append(text(offsets.fromConnectData(topic, null, record.sourceOffset())))
        .append('\n');
    out.append("  key ")
        .append(text(keys.fromConnectData(topic, record.keySchema(), record.key())))
        .append('\n');
    out.append("  value ")
        .append(text(values.fromConnectData(topic, record.valueSchema(), record.value())))
        .append('\n');
    for (Header header : record.headers()) {
      Schema schema = header.schema();
      out.append("  header ")
          .append(header.key())
          .append(" ")
          .append(schema.type())
          .append(schema.isOptional() ? " optional" : "")
          .append(schema.name() == null ? "" : " " + schema.name())
          .append(" ")
          .append(text(headers.fromConnectHeader(topic, header.key(), schema, header.value())))
          .append('\n');
    }
  }

  private static JsonConverter json(boolean isKey, boolean schemas) {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", Boolean.toString(schemas)), isKey);
    return converter;
  }

  private static String text(byte[] bytes) {
    return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
  }
}
