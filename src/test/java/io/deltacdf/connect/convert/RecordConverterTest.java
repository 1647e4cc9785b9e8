package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangePosition.InSnapshot;
import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import io.deltacdf.connect.change.LoggedSchema;
import io.deltacdf.connect.offset.OffsetCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** What records each change row becomes, and the offsets they carry, in each format. */
class RecordConverterTest {

  private static final FieldType.Struct SCHEMA =
      new FieldType.Struct(
          List.of(
              new FieldType.Field("id", new FieldType.Primitive(PrimitiveKind.LONG), false),
              new FieldType.Field("name", new FieldType.Primitive(PrimitiveKind.STRING), true)));

  private static final RecordSettings ROW = Settings.of();
  private static final RecordSettings ENVELOPE = Settings.of("record.format", "envelope");

  /** Feeds rows of one version in order, tracking the positions a reader would report. */
  private static final class Version {
    final long version;
    final List<ChangeRow> rows = new ArrayList<>();

    Version(long version) {
      this.version = version;
    }

    Version row(ChangeType type, long id, String name) {
      rows.add(
          new ChangeRow(
              type,
              version,
              1_000 * version,
              new Object[] {id, name},
              new InVersion(version, 0, rows.size() + 1)));
      return this;
    }

    /** The rows, the last one ending the version. */
    List<ChangeRow> done() {
      ChangeRow last = rows.remove(rows.size() - 1);
      rows.add(
          new ChangeRow(
              last.type(),
              last.version(),
              last.commitTimestampMs(),
              last.values(),
              InVersion.start(version + 1)));
      return rows;
    }
  }

  private static ConvertedFeed converter(RecordSettings settings, List<String> key) {
    return new ConvertedFeed(
        new RecordConverter(
            "file:/lake/orders", "orders", "orders", Map.of("table", "t"), key, settings),
        InVersion.start(7));
  }

  /** Converts rows as the task does, telling the converter where each version ends. */
  private static List<SourceRecord> convertAll(ConvertedFeed converter, List<ChangeRow> rows) {
    List<SourceRecord> records = new ArrayList<>();
    for (ChangeRow row : rows) {
      records.addAll(converter.convert(row, SCHEMA));
      if (row.after().equals(InVersion.start(row.version() + 1))) {
        records.addAll(converter.endVersion());
      }
    }
    return records;
  }

  private static ChangePosition offset(SourceRecord record) {
    return OffsetCodec.fromMap(record.sourceOffset());
  }

  @Test
  void rowFormatSendsTheRowWithHeadersAndATombstoneAfterEachDelete() {
    ConvertedFeed converter = converter(ROW, List.of("id"));
    List<SourceRecord> records =
        convertAll(
            converter,
            new Version(7).row(ChangeType.INSERT, 1, "a").row(ChangeType.DELETE, 2, "b").done());

    assertThat(records).hasSize(3);
    SourceRecord insert = records.get(0);
    assertThat(((Struct) insert.value()).getString("name")).isEqualTo("a");
    assertThat(((Struct) insert.key()).getInt64("id")).isEqualTo(1L);
    assertThat(insert.headers().lastWithName("_change_type").value()).isEqualTo("insert");
    assertThat(insert.headers().lastWithName("_commit_version").value()).isEqualTo(7L);
    assertThat(insert.timestamp()).as("the producer stamps it").isNull();
    assertThat(insert.valueSchema().name()).isEqualTo("io.deltacdf.orders.Value");

    SourceRecord delete = records.get(1);
    SourceRecord tombstone = records.get(2);
    assertThat(((Struct) delete.value()).getString("name")).isEqualTo("b");
    assertThat(tombstone.value()).isNull();
    assertThat(tombstone.valueSchema()).isNull();
    assertThat(tombstone.key()).isEqualTo(delete.key());
    // The delete alone stores the position before it: a restart re-sends delete and tombstone.
    assertThat(offset(delete)).isEqualTo(offset(insert)).isEqualTo(new InVersion(7, 0, 1));
    assertThat(offset(tombstone)).isEqualTo(InVersion.start(8));
  }

  @Test
  void everyRecordCarriesTheHeadersOfItsOwnRowAndVersion() {
    ConvertedFeed converter = converter(ROW, List.of("id"));
    List<ChangeRow> rows = new ArrayList<>(new Version(7).row(ChangeType.INSERT, 1, "a").done());
    rows.addAll(
        new Version(8)
            .row(ChangeType.UPDATE_PREIMAGE, 1, "a")
            .row(ChangeType.UPDATE_POSTIMAGE, 1, "b")
            .done());
    List<SourceRecord> records = convertAll(converter, rows);

    assertThat(records)
        .extracting(
            r ->
                r.headers().lastWithName("_change_type").value()
                    + "@"
                    + r.headers().lastWithName("_commit_version").value()
                    + "/"
                    + r.headers().lastWithName("_commit_timestamp").value())
        .containsExactly("insert@7/7000", "update_preimage@8/8000", "update_postimage@8/8000");
    // A transform that adds a header to one record leaves the others as they were.
    records.get(1).headers().addString("added", "x");
    assertThat(records.get(2).headers().size()).isEqualTo(3);
  }

  @Test
  void recordTimestampProducerLeavesEveryRecordUnstampedInEveryFormat() {
    for (RecordSettings settings :
        List.of(
            ROW,
            ENVELOPE,
            Settings.of("output.format", "json"),
            Settings.of("record.format", "envelope", "output.format", "json"))) {
      assertThat(timestampedRecords(settings))
          .as("%s", settings)
          .hasSize(4)
          .extracting(SourceRecord::timestamp)
          .containsOnlyNulls();
    }
  }

  @Test
  void recordTimestampCommitKeepsTheCommitTimeInEveryFormat() {
    for (String format : List.of("row", "envelope")) {
      for (String output : List.of("struct", "json")) {
        RecordSettings settings =
            Settings.of(
                "record.timestamp", "commit", "record.format", format, "output.format", output);
        assertThat(timestampedRecords(settings))
            .as("%s", settings)
            .extracting(SourceRecord::timestamp)
            .containsExactly(3_000L, 7_000L, 7_000L, 7_000L);
      }
    }
  }

  /**
   * A snapshot row of version 3, then version 7's insert and delete: with tombstones, four records
   * in either format.
   */
  private static List<SourceRecord> timestampedRecords(RecordSettings settings) {
    ConvertedFeed converter =
        new ConvertedFeed(
            new RecordConverter(
                "file:/lake/orders", "orders", "orders", Map.of(), List.of("id"), settings),
            InSnapshot.start(3));
    List<SourceRecord> records = new ArrayList<>();
    records.addAll(
        converter.convert(
            new ChangeRow(ChangeType.INSERT, 3, 3_000, new Object[] {1L, "a"}, InVersion.start(4)),
            SCHEMA));
    records.addAll(converter.endVersion());
    records.addAll(
        convertAll(
            converter,
            new Version(7).row(ChangeType.INSERT, 2, "b").row(ChangeType.DELETE, 1, "a").done()));
    return records;
  }

  @Test
  void keylessTablesAndDisabledTombstonesGetNoTombstones() {
    List<ChangeRow> rows = new Version(7).row(ChangeType.DELETE, 2, "b").done();
    assertThat(convertAll(converter(ROW, List.of()), rows)).hasSize(1);
    RecordSettings off = Settings.of("tombstones.on.delete", "false");
    assertThat(convertAll(converter(off, List.of("id")), rows)).hasSize(1);
  }

  @Test
  void filteredChangeTypesYieldNoRecordsButLaterOffsetsCoverThem() {
    ConvertedFeed converter =
        converter(Settings.of("change.types", "insert,update_postimage"), List.of("id"));
    List<SourceRecord> records =
        convertAll(
            converter,
            new Version(7)
                .row(ChangeType.DELETE, 1, "x")
                .row(ChangeType.UPDATE_PREIMAGE, 2, "old")
                .row(ChangeType.UPDATE_POSTIMAGE, 2, "new")
                .row(ChangeType.DELETE, 3, "y")
                .done());

    assertThat(records).hasSize(1);
    assertThat(((Struct) records.get(0).value()).getString("name")).isEqualTo("new");
    assertThat(offset(records.get(0))).isEqualTo(new InVersion(7, 0, 3));
  }

  @Test
  void metadataFieldsFollowTheColumns() {
    RecordSettings settings = Settings.of("record.metadata.fields", "true");
    SourceRecord record =
        convertAll(
                converter(settings, List.of()),
                new Version(9).row(ChangeType.INSERT, 1, "a").done())
            .get(0);
    Struct value = (Struct) record.value();
    assertThat(value.schema().fields().stream().map(f -> f.name()))
        .containsExactly("id", "name", "_change_type", "_commit_version", "_commit_timestamp");
    assertThat(value.getString("_change_type")).isEqualTo("insert");
    assertThat(value.getInt64("_commit_version")).isEqualTo(9L);
    assertThat(value.get("_commit_timestamp")).isEqualTo(new java.util.Date(9_000));
  }

  @Test
  void envelopePairsUpdateImagesByKeyInAnyOrder() {
    ConvertedFeed converter = converter(ENVELOPE, List.of("id"));
    List<ChangeRow> rows =
        new Version(7)
            .row(ChangeType.UPDATE_POSTIMAGE, 1, "one-new") // post before its pre
            .row(ChangeType.UPDATE_PREIMAGE, 2, "two-old")
            .row(ChangeType.INSERT, 5, "five")
            .row(ChangeType.UPDATE_PREIMAGE, 1, "one-old")
            .row(ChangeType.UPDATE_POSTIMAGE, 2, "two-new")
            .done();
    List<SourceRecord> records = new ArrayList<>();
    List<Boolean> settled = new ArrayList<>();
    for (ChangeRow row : rows) {
      records.addAll(converter.convert(row, SCHEMA));
      settled.add(converter.settled());
    }

    assertThat(records).extracting(r -> op(r)).containsExactly("c", "u", "u");
    assertThat(settled).containsExactly(false, false, false, false, true);
    Struct one = (Struct) records.get(1).value();
    assertThat(one.getStruct("before").getString("name")).isEqualTo("one-old");
    assertThat(one.getStruct("after").getString("name")).isEqualTo("one-new");
    assertThat(((Struct) records.get(1).key()).getInt64("id")).isEqualTo(1L);
    // While images wait, offsets stay before the earliest waiting one.
    assertThat(offset(records.get(0))).isEqualTo(InVersion.start(7));
    assertThat(offset(records.get(1))).isEqualTo(new InVersion(7, 0, 1));
    assertThat(offset(records.get(2))).isEqualTo(InVersion.start(8));

    Struct source = one.getStruct("source");
    assertThat(source.getString("connector")).isEqualTo("delta-cdf");
    assertThat(source.getString("name")).isEqualTo("conn");
    assertThat(source.getString("version")).isEqualTo("1.0");
    assertThat(source.getString("table")).isEqualTo("orders");
    assertThat(source.getString("path")).isEqualTo("file:/lake/orders");
    assertThat(source.getInt64("commit_version")).isEqualTo(7L);
    assertThat(source.getInt64("ts_ms")).isEqualTo(7_000L);
    assertThat(source.getString("snapshot")).isEqualTo("false");
    assertThat(records.get(1).valueSchema().name()).isEqualTo("io.deltacdf.orders.Envelope");
  }

  @Test
  void envelopeDeletesCarryTheRowBeforeAndATombstone() {
    List<SourceRecord> records =
        convertAll(
            converter(ENVELOPE, List.of("id")),
            new Version(7).row(ChangeType.DELETE, 4, "d").done());
    assertThat(records).hasSize(2);
    Struct value = (Struct) records.get(0).value();
    assertThat(op(records.get(0))).isEqualTo("d");
    assertThat(value.getStruct("before").getString("name")).isEqualTo("d");
    assertThat(value.get("after")).isNull();
    assertThat(records.get(1).value()).isNull();
  }

  @Test
  void anUpdateThatChangesTheKeyBecomesADeleteAndACreate() {
    List<SourceRecord> records =
        convertAll(
            converter(ENVELOPE, List.of("id")),
            new Version(7)
                .row(ChangeType.UPDATE_PREIMAGE, 1, "old")
                .row(ChangeType.UPDATE_POSTIMAGE, 9, "new")
                .done());
    assertThat(records)
        .extracting(r -> r.value() == null ? "tombstone" : op(r))
        .containsExactly("d", "tombstone", "c");
    assertThat(((Struct) records.get(0).key()).getInt64("id")).isEqualTo(1L);
    assertThat(((Struct) records.get(2).key()).getInt64("id")).isEqualTo(9L);
    assertThat(offset(records.get(0))).isEqualTo(InVersion.start(7));
    assertThat(offset(records.get(2))).isEqualTo(InVersion.start(8));
  }

  @Test
  void snapshotRowsAreReadEventsAndTheLastIsMarkedWhenTheSnapshotEnds() {
    ConvertedFeed converter =
        new ConvertedFeed(
            new RecordConverter(
                "file:/lake/orders", "orders", "orders", Map.of(), List.of("id"), ENVELOPE),
            InSnapshot.start(3));
    List<SourceRecord> records = new ArrayList<>();
    records.addAll(
        converter.convert(
            new ChangeRow(
                ChangeType.INSERT, 3, 3_000, new Object[] {1L, "a"}, new InSnapshot(3, "f1", 1)),
            SCHEMA));
    // The last row of the last file with rows; the file after it turns out to be empty.
    records.addAll(
        converter.convert(
            new ChangeRow(
                ChangeType.INSERT, 3, 3_000, new Object[] {2L, "b"}, new InSnapshot(3, "f2", 0)),
            SCHEMA));
    assertThat(converter.settled()).isFalse();
    records.addAll(converter.endVersion());

    assertThat(converter.settled()).isTrue();
    assertThat(records).extracting(RecordConverterTest::op).containsExactly("r", "r");
    assertThat(records)
        .extracting(r -> ((Struct) r.value()).getStruct("source").getString("snapshot"))
        .containsExactly("true", "last");
    assertThat(records)
        .extracting(RecordConverterTest::offset)
        .containsExactly(new InSnapshot(3, "f1", 1), new InSnapshot(3, "f2", 0));
  }

  @Test
  void withoutPreImagesUpdatesHaveNoBefore() {
    ConvertedFeed converter =
        converter(
            Settings.of(
                "record.format", "envelope", "change.types", "insert,update_postimage,delete"),
            List.of("id"));
    List<SourceRecord> records =
        convertAll(
            converter,
            new Version(7)
                .row(ChangeType.UPDATE_PREIMAGE, 1, "old")
                .row(ChangeType.UPDATE_POSTIMAGE, 1, "new")
                .done());
    assertThat(records).hasSize(1);
    assertThat(((Struct) records.get(0).value()).get("before")).isNull();
    assertThat(((Struct) records.get(0).value()).getStruct("after").getString("name"))
        .isEqualTo("new");
  }

  @Test
  void tooManyWaitingImagesStopWithAnErrorNamingTheSetting() {
    RecordSettings tight =
        Settings.of("record.format", "envelope", "envelope.max.pending.images", "2");
    ConvertedFeed converter = converter(tight, List.of("id"));
    List<ChangeRow> rows =
        new Version(7)
            .row(ChangeType.UPDATE_PREIMAGE, 1, "a")
            .row(ChangeType.UPDATE_PREIMAGE, 2, "b")
            .row(ChangeType.UPDATE_PREIMAGE, 3, "c")
            .done();
    converter.convert(rows.get(0), SCHEMA);
    converter.convert(rows.get(1), SCHEMA);
    assertThatThrownBy(() -> converter.convert(rows.get(2), SCHEMA))
        .hasMessageContaining("envelope.max.pending.images")
        .hasMessageContaining("version 7")
        .hasMessageContaining("change.source=derived");
  }

  @Test
  void microsecondModeKeepsEveryMicrosecond() {
    FieldType.Struct schema =
        new FieldType.Struct(
            List.of(
                new FieldType.Field("ts", new FieldType.Primitive(PrimitiveKind.TIMESTAMP), true),
                new FieldType.Field(
                    "ntz", new FieldType.Primitive(PrimitiveKind.TIMESTAMP_NTZ), true)));
    RecordSettings micros = Settings.of("temporal.precision.mode", "microseconds");
    Instant instant = Instant.parse("1969-12-31T23:59:59.999999Z");
    SourceRecord record =
        converter(micros, List.of())
            .convert(
                new ChangeRow(
                    ChangeType.INSERT,
                    7,
                    0,
                    new Object[] {
                      instant, java.time.LocalDateTime.parse("2024-05-01T12:00:00.123456")
                    },
                    InVersion.start(8)),
                schema)
            .get(0);
    Struct value = (Struct) record.value();
    assertThat(value.schema().field("ts").schema().name())
        .isEqualTo("io.debezium.time.MicroTimestamp");
    assertThat(value.schema().field("ts").schema().type()).isEqualTo(Schema.Type.INT64);
    assertThat(value.getInt64("ts")).isEqualTo(-1L);
    assertThat(value.getInt64("ntz")).isEqualTo(1_714_564_800_123_456L);
  }

  @Test
  void avroAdjustmentRewritesNamesAndRefusesCollisions() {
    FieldType.Struct nested =
        new FieldType.Struct(
            List.of(
                new FieldType.Field(
                    "zip code", new FieldType.Primitive(PrimitiveKind.STRING), true)));
    FieldType.Struct schema =
        new FieldType.Struct(
            List.of(
                new FieldType.Field("order-id", new FieldType.Primitive(PrimitiveKind.LONG), false),
                new FieldType.Field(
                    "1st.name", new FieldType.Primitive(PrimitiveKind.STRING), true),
                new FieldType.Field("adresse é", nested, true)));
    RecordSettings avro = Settings.of("field.name.adjustment", "avro");
    SourceRecord record =
        new ConvertedFeed(
                new RecordConverter(
                    "file:/x/my-table", "my-table", "t", Map.of(), List.of("order-id"), avro),
                InVersion.start(1))
            .convert(
                new ChangeRow(
                    ChangeType.INSERT,
                    1,
                    0,
                    new Object[] {5L, "n", new Object[] {"z"}},
                    InVersion.start(2)),
                schema)
            .get(0);
    Schema value = record.valueSchema();
    assertThat(value.fields().stream().map(f -> f.name()))
        .containsExactly("order_id", "_1st_name", "adresse__");
    assertThat(value.name()).isEqualTo("io.deltacdf.my_table.Value");
    assertThat(value.field("adresse__").schema().name())
        .isEqualTo("io.deltacdf.my_table.Value.adresse__");
    assertThat(value.field("adresse__").schema().field("zip_code")).isNotNull();
    assertThat(record.keySchema().fields().get(0).name()).isEqualTo("order_id");
    assertThat(((Struct) record.key()).getInt64("order_id")).isEqualTo(5L);

    FieldType.Struct clashing =
        new FieldType.Struct(
            List.of(
                new FieldType.Field("a-b", new FieldType.Primitive(PrimitiveKind.LONG), true),
                new FieldType.Field("a.b", new FieldType.Primitive(PrimitiveKind.LONG), true)));
    ConvertedFeed converter =
        new ConvertedFeed(
            new RecordConverter("file:/x/t", "t", "t", Map.of(), List.of(), avro),
            InVersion.start(1));
    assertThatThrownBy(
            () -> converter.requireConvertible(List.of(new LoggedSchema(1, clashing)), List::of))
        .isInstanceOf(FieldNameCollisionException.class)
        .hasMessageContaining("'a-b' and 'a.b'")
        .hasMessageContaining("'a_b'");
  }

  @Test
  void structColumnsWhoseNamesCleanAlikeGetDistinctSchemaNames() {
    FieldType.Struct city =
        new FieldType.Struct(
            List.of(
                new FieldType.Field("city", new FieldType.Primitive(PrimitiveKind.STRING), true)));
    FieldType.Struct zip =
        new FieldType.Struct(
            List.of(new FieldType.Field("zip", new FieldType.Primitive(PrimitiveKind.LONG), true)));
    FieldType.Struct schema =
        new FieldType.Struct(
            List.of(
                new FieldType.Field("home-address", city, true),
                new FieldType.Field("home_address", zip, true),
                new FieldType.Field("home.address", city, true)));
    SourceRecord record =
        new ConvertedFeed(
                new RecordConverter("file:/x/t", "t", "t", Map.of(), List.of(), ROW),
                InVersion.start(1))
            .convert(
                new ChangeRow(
                    ChangeType.INSERT,
                    1,
                    0,
                    new Object[] {new Object[] {"Oslo"}, new Object[] {150L}, null},
                    InVersion.start(2)),
                schema)
            .get(0);

    // Field names stay the column names; the nested schema names differ, as Avro needs.
    assertThat(record.valueSchema().fields())
        .extracting(f -> f.name() + " -> " + f.schema().name())
        .containsExactly(
            "home-address -> io.deltacdf.t.Value.home_address",
            "home_address -> io.deltacdf.t.Value.home_address_2",
            "home.address -> io.deltacdf.t.Value.home_address_3");
    Struct value = (Struct) record.value();
    assertThat(value.getStruct("home-address").getString("city")).isEqualTo("Oslo");
    assertThat(value.getStruct("home_address").getInt64("zip")).isEqualTo(150L);
  }

  private static String op(SourceRecord record) {
    return ((Struct) record.value()).getString("op");
  }
}
