package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.transforms.ExtractNewRecordState;
import io.deltacdf.connect.change.ChangePosition.InSnapshot;
import io.deltacdf.connect.change.ChangePosition.InVersion;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * Our envelope is Debezium's: Debezium's own ExtractNewRecordState flattens it into the rows, and
 * deletes into what its delete handling promises.
 */
class DebeziumEnvelopeTest {

  private static final FieldType.Struct SCHEMA =
      new FieldType.Struct(
          List.of(
              new FieldType.Field("id", new FieldType.Primitive(PrimitiveKind.LONG), false),
              new FieldType.Field("name", new FieldType.Primitive(PrimitiveKind.STRING), true)));

  /** A snapshot row, then an insert, an update (post-image first) and a delete in version 4. */
  private static List<SourceRecord> envelopeRecords() {
    ConvertedFeed converter =
        new ConvertedFeed(
            new RecordConverter(
                "file:/lake/people",
                "people",
                "people",
                Map.of(),
                List.of("id"),
                Settings.of("record.format", "envelope")),
            InSnapshot.start(3));
    List<ChangeRow> rows =
        List.of(
            row(ChangeType.INSERT, 3, 1, "ann", InVersion.start(4)),
            row(ChangeType.INSERT, 4, 2, "bob", new InVersion(4, 0, 1)),
            row(ChangeType.UPDATE_POSTIMAGE, 4, 1, "anna", new InVersion(4, 0, 2)),
            row(ChangeType.UPDATE_PREIMAGE, 4, 1, "ann", new InVersion(4, 0, 3)),
            row(ChangeType.DELETE, 4, 2, "bob", InVersion.start(5)));
    List<SourceRecord> records = new ArrayList<>();
    for (ChangeRow row : rows) {
      records.addAll(converter.convert(row, SCHEMA));
      if (row.after().equals(InVersion.start(row.version() + 1))) {
        records.addAll(converter.endVersion());
      }
    }
    return records;
  }

  private static ChangeRow row(
      ChangeType type,
      long version,
      long id,
      String name,
      io.deltacdf.connect.change.ChangePosition after) {
    return new ChangeRow(type, version, version * 1000, new Object[] {id, name}, after);
  }

  private static List<SourceRecord> flatten(Map<String, String> settings) {
    try (ExtractNewRecordState<SourceRecord> smt = new ExtractNewRecordState<>()) {
      smt.configure(settings);
      return envelopeRecords().stream().map(smt::apply).filter(Objects::nonNull).toList();
    }
  }

  private static String describe(SourceRecord record) {
    long key = ((Struct) record.key()).getInt64("id");
    if (record.value() == null) {
      return key + ":tombstone";
    }
    Struct value = (Struct) record.value();
    String text = key + ":" + value.getString("name");
    if (value.schema().field("__deleted") != null) {
      text += " deleted=" + value.getString("__deleted");
    }
    if (value.schema().field("__op") != null) {
      text += " op=" + value.getString("__op");
    }
    if (value.schema().field("__commit_version") != null) {
      text += " v=" + value.getInt64("__commit_version");
    }
    return text;
  }

  @Test
  void flattensToRowsWithDeletesRewritten() {
    List<SourceRecord> flat =
        flatten(
            Map.of(
                "delete.tombstone.handling.mode", "rewrite",
                "add.fields", "op,commit_version"));
    assertThat(flat)
        .extracting(DebeziumEnvelopeTest::describe)
        .containsExactly(
            "1:ann deleted=false op=r v=3",
            "2:bob deleted=false op=c v=4",
            "1:anna deleted=false op=u v=4",
            "2:bob deleted=true op=d v=4");
    assertThat(flat.get(0).valueSchema().name()).isEqualTo("io.deltacdf.people.Value");
  }

  @Test
  void flattensDeletesToTombstonesByDefault() {
    assertThat(flatten(Map.of()))
        .extracting(DebeziumEnvelopeTest::describe)
        .containsExactly("1:ann", "2:bob", "1:anna", "2:tombstone");
  }
}
