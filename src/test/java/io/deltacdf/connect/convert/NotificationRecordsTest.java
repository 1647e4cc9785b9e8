package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** Notification records: Debezium's sink-channel shape, as structs and as JSON text. */
class NotificationRecordsTest {

  private static final Notification NOTIFICATION =
      new Notification(
          "n-1",
          "Initial Snapshot",
          "IN_PROGRESS",
          Map.of("data_collection", "/lake/or\"ders", "percent", "25"),
          1_700_000_000_000L);
  private static final Map<String, String> PARTITION = Map.of("table", "/lake/orders");
  private static final Map<String, Object> OFFSET = Map.of("version", 3L);

  @Test
  void aNotificationHasDebeziumsFieldsAndCarriesTheTablesOffset() {
    SourceRecord record =
        new NotificationRecords("notices", OutputFormat.STRUCT)
            .record(NOTIFICATION, PARTITION, OFFSET);

    Struct value = (Struct) record.value();
    value.validate();
    assertThat(record.topic()).isEqualTo("notices");
    assertThat(((Struct) record.key()).getString("id")).isEqualTo("n-1");
    assertThat(value.getString("aggregate_type")).isEqualTo("Initial Snapshot");
    assertThat(value.getString("type")).isEqualTo("IN_PROGRESS");
    assertThat(value.<String, String>getMap("additional_data"))
        .containsEntry("percent", "25")
        .containsEntry("data_collection", "/lake/or\"ders");
    assertThat(value.getInt64("timestamp")).isEqualTo(1_700_000_000_000L);
    assertThat(record.sourcePartition()).isEqualTo(PARTITION);
    assertThat(record.sourceOffset()).isEqualTo(OFFSET);
  }

  @Test
  void jsonOutputIsWhatJsonConverterMakesOfTheStruct() {
    SourceRecord struct =
        new NotificationRecords("notices", OutputFormat.STRUCT)
            .record(NOTIFICATION, PARTITION, OFFSET);
    SourceRecord json =
        new NotificationRecords("notices", OutputFormat.JSON).record(NOTIFICATION, null, null);
    assertThat((String) json.key())
        .isEqualTo(JsonConverterText.of(struct.keySchema(), struct.key()));
    assertThat((String) json.value())
        .isEqualTo(JsonConverterText.of(struct.valueSchema(), struct.value()));
    assertThat(json.sourcePartition()).as("a notification about no table").isNull();
  }
}
