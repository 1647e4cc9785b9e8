package io.deltacdf.connect.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.transforms.ExtractNewRecordState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * The transaction metadata's shapes: Debezium's BEGIN and END events (plus the commit's version,
 * operation and counts per change type), the envelope's transaction block and the row format's
 * header, and JSON text equal to what JsonConverter makes of the structs.
 */
class TransactionRecordsTest {

  private static final Map<String, String> PARTITION = Map.of("table", "file:/lake/orders");
  private static final Map<String, Object> START = Map.of("version", 7L, "file", 0);
  private static final Map<String, Object> END = Map.of("version", 8L, "file", 0);
  private static final TransactionRecords.Transaction TRANSACTION =
      new TransactionRecords.Transaction("orders:7", "orders", 7, 1_700_000_000_123L, "MERGE");

  private static Map<String, Long> counts() {
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("insert", 2L);
    counts.put("update_preimage", 1L);
    counts.put("update_postimage", 1L);
    return counts;
  }

  private static TransactionRecords records(String... settings) {
    return new TransactionRecords("conn.transaction", Settings.of(settings));
  }

  @Test
  void beginAndEndAreDebeziumsEventsWithTheCommitsVersionOperationAndCounts() {
    TransactionRecords records = records();
    SourceRecord begin = records.begin(TRANSACTION, PARTITION, START);
    SourceRecord end = records.end(TRANSACTION, 3, counts(), PARTITION, END);

    assertThat(begin.topic()).isEqualTo("conn.transaction");
    assertThat(begin.keySchema().name())
        .isEqualTo("io.debezium.connector.common.TransactionMetadataKey");
    assertThat(((Struct) begin.key()).getString("id")).isEqualTo("orders:7");
    assertThat(begin.valueSchema().name())
        .isEqualTo("io.debezium.connector.common.TransactionMetadataValue");
    Struct beginValue = (Struct) begin.value();
    assertThat(beginValue.getString("status")).isEqualTo("BEGIN");
    assertThat(beginValue.getString("id")).isEqualTo("orders:7");
    assertThat(beginValue.get("event_count")).isNull();
    assertThat(beginValue.get("data_collections")).isNull();
    assertThat(beginValue.getInt64("ts_ms")).isEqualTo(1_700_000_000_123L);
    assertThat(beginValue.getInt64("commit_version")).isEqualTo(7L);
    assertThat(begin.sourceOffset()).isEqualTo(START);
    assertThat(begin.sourcePartition()).isEqualTo(PARTITION);
    assertThat(begin.timestamp()).isEqualTo(1_700_000_000_123L);

    Struct endValue = (Struct) end.value();
    assertThat(endValue.getString("status")).isEqualTo("END");
    assertThat(endValue.getInt64("event_count")).isEqualTo(3L);
    assertThat(endValue.getString("operation")).isEqualTo("MERGE");
    List<Struct> collections = endValue.getArray("data_collections");
    assertThat(collections).hasSize(1);
    assertThat(collections.get(0).getString("data_collection")).isEqualTo("orders");
    assertThat(collections.get(0).getInt64("event_count")).isEqualTo(3L);
    assertThat(collections.get(0).<String, Long>getMap("change_type_counts"))
        .containsExactlyEntriesOf(counts());
    assertThat(end.sourceOffset()).isEqualTo(END);
    endValue.validate();
  }

  @Test
  void jsonEventsAreWhatJsonConverterMakesOfTheStructs() {
    TransactionRecords structs = records();
    TransactionRecords jsons = records("output.format", "json");
    TransactionRecords.Transaction noOperation =
        new TransactionRecords.Transaction("o\"rders:8", "o\"rders", 8, 5L, null);
    assertSameJson(
        structs.begin(TRANSACTION, PARTITION, START), jsons.begin(TRANSACTION, PARTITION, START));
    assertSameJson(
        structs.end(TRANSACTION, 3, counts(), PARTITION, END),
        jsons.end(TRANSACTION, 3, counts(), PARTITION, END));
    assertSameJson(
        structs.end(noOperation, 0, Map.of(), PARTITION, END),
        jsons.end(noOperation, 0, Map.of(), PARTITION, END));
  }

  @Test
  void anEnvelopeGetsDebeziumsTransactionBlockAndATombstoneStaysAsItIs() {
    SourceRecord event = envelopeRecord();
    SourceRecord marked = records("record.format", "envelope").mark(event, "orders:7", 2);

    Schema block = marked.valueSchema().field("transaction").schema();
    assertThat(block.isOptional()).isTrue();
    assertThat(block.name()).isEqualTo("event.block");
    Struct value = (Struct) marked.value();
    value.validate();
    assertThat(value.getStruct("transaction").getString("id")).isEqualTo("orders:7");
    assertThat(value.getStruct("transaction").getInt64("total_order")).isEqualTo(2L);
    assertThat(value.getStruct("transaction").getInt64("data_collection_order")).isEqualTo(2L);
    assertThat(value.getString("op")).isEqualTo("c");
    assertThat(marked.valueSchema().name()).isEqualTo(event.valueSchema().name());
    assertThat(marked.sourceOffset()).isEqualTo(event.sourceOffset());

    SourceRecord tombstone =
        new SourceRecord(PARTITION, END, "orders", null, null, null, null, null);
    assertThat(records("record.format", "envelope").mark(tombstone, "orders:7", 2))
        .isSameAs(tombstone);
  }

  @Test
  void aMarkedEnvelopeStillFlattensWithDebeziumsTransform() {
    SourceRecord marked = records("record.format", "envelope").mark(envelopeRecord(), "t:7", 1);
    try (ExtractNewRecordState<SourceRecord> smt = new ExtractNewRecordState<>()) {
      smt.configure(Map.of());
      SourceRecord flat = smt.apply(marked);
      assertThat(((Struct) flat.value()).getInt64("id")).isEqualTo(1L);
    }
  }

  @Test
  void aJsonEnvelopeGetsTheSameBlockAsText() {
    SourceRecord struct = envelopeRecord();
    String text = JsonConverterText.of(struct.valueSchema(), struct.value());
    SourceRecord json =
        new SourceRecord(PARTITION, END, "orders", null, null, null, Schema.STRING_SCHEMA, text);
    assertSameJson(
        records("record.format", "envelope").mark(struct, "orders:7", 3),
        records("record.format", "envelope", "output.format", "json").mark(json, "orders:7", 3));
  }

  @Test
  void aRowRecordGetsTheHeaderOnACopyOfItsHeaders() {
    ConnectHeaders shared = new ConnectHeaders();
    shared.addString("_change_type", "insert");
    SourceRecord row =
        new SourceRecord(
            PARTITION, END, "orders", null, null, null, Schema.STRING_SCHEMA, "{}", 1L, shared);
    SourceRecord marked = records().mark(row, "orders:7", 1);
    assertThat(marked.headers().lastWithName("_transaction_id").value()).isEqualTo("orders:7");
    assertThat(marked.headers().lastWithName("_change_type").value()).isEqualTo("insert");
    assertThat(marked.value()).isEqualTo("{}");
    assertThat(shared.lastWithName("_transaction_id")).as("the shared list untouched").isNull();
  }

  private static SourceRecord envelopeRecord() {
    Schema row =
        SchemaBuilder.struct()
            .name("io.deltacdf.orders.Value")
            .optional()
            .field("id", Schema.INT64_SCHEMA)
            .build();
    Schema source =
        SchemaBuilder.struct()
            .name("io.deltacdf.connect.Source")
            .field("table", Schema.STRING_SCHEMA)
            .build();
    Schema envelope =
        SchemaBuilder.struct()
            .name("io.deltacdf.orders.Envelope")
            .field("before", row)
            .field("after", row)
            .field("source", source)
            .field("op", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    Struct value =
        new Struct(envelope)
            .put("after", new Struct(row).put("id", 1L))
            .put("source", new Struct(source).put("table", "orders"))
            .put("op", "c")
            .put("ts_ms", 9L);
    return new SourceRecord(PARTITION, END, "orders", null, null, null, envelope, value);
  }

  private static void assertSameJson(SourceRecord struct, SourceRecord json) {
    assertThat(json.topic()).isEqualTo(struct.topic());
    assertThat(json.sourceOffset()).isEqualTo(struct.sourceOffset());
    if (struct.key() != null) {
      assertThat((String) json.key())
          .isEqualTo(JsonConverterText.of(struct.keySchema(), struct.key()));
    }
    assertThat((String) json.value())
        .isEqualTo(JsonConverterText.of(struct.valueSchema(), struct.value()));
  }
}
