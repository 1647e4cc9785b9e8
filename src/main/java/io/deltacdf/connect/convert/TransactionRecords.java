package io.deltacdf.connect.convert;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's transaction metadata (provide.transaction.metadata=true), one transaction per Delta
 * version of a table: the BEGIN and END events of the transaction topic, and the mark each change
 * record of the version carries (the envelope's {@code transaction} block, or in record.format=row
 * the {@link #ID_HEADER} header).
 *
 * <p>Key and value follow Debezium's schemas and names; the value adds {@code commit_version} and
 * {@code operation} (the commit's commitInfo operation), and each END data collection adds {@code
 * change_type_counts}. In output.format=json they are the JSON text JsonConverter (without schemas)
 * makes of those structs.
 */
public final class TransactionRecords {

  /** The row-format header that names a change record's transaction. */
  public static final String ID_HEADER = "_transaction_id";

  static final Schema KEY_SCHEMA =
      SchemaBuilder.struct()
          .name("io.debezium.connector.common.TransactionMetadataKey")
          .field("id", Schema.STRING_SCHEMA)
          .build();

  static final Schema DATA_COLLECTION_SCHEMA =
      SchemaBuilder.struct()
          .name("io.deltacdf.connect.TransactionDataCollection")
          .field("data_collection", Schema.STRING_SCHEMA)
          .field("event_count", Schema.INT64_SCHEMA)
          .field(
              "change_type_counts",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT64_SCHEMA).optional().build())
          .build();

  static final Schema VALUE_SCHEMA =
      SchemaBuilder.struct()
          .name("io.debezium.connector.common.TransactionMetadataValue")
          .field("status", Schema.STRING_SCHEMA)
          .field("id", Schema.STRING_SCHEMA)
          .field("event_count", Schema.OPTIONAL_INT64_SCHEMA)
          .field("data_collections", SchemaBuilder.array(DATA_COLLECTION_SCHEMA).optional().build())
          .field("ts_ms", Schema.INT64_SCHEMA)
          .field("commit_version", Schema.INT64_SCHEMA)
          .field("operation", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  /** The envelope's transaction block, as Debezium's. */
  static final Schema BLOCK_SCHEMA =
      SchemaBuilder.struct()
          .name("event.block")
          .version(1)
          .optional()
          .field("id", Schema.STRING_SCHEMA)
          .field("total_order", Schema.INT64_SCHEMA)
          .field("data_collection_order", Schema.INT64_SCHEMA)
          .build();

  /** A version's transaction as the BEGIN and END events tell it. */
  public record Transaction(
      String id,
      String dataCollection,
      long commitVersion,
      long commitTimestampMs,
      String operation) {}

  private final String topic;
  private final RecordFormat format;
  private final OutputFormat output;

  /** Each envelope schema with the transaction block added, made once per envelope schema. */
  private final Map<Schema, Schema> markedEnvelopes = new IdentityHashMap<>();

  public TransactionRecords(String topic, RecordSettings settings) {
    this.topic = topic;
    this.format = settings.format();
    this.output = settings.outputFormat();
  }

  /** The BEGIN event, carrying {@code offset} as its source offset. */
  public SourceRecord begin(
      Transaction transaction, Map<String, ?> sourcePartition, Map<String, ?> offset) {
    return event("BEGIN", transaction, null, sourcePartition, offset);
  }

  /**
   * The END event, carrying {@code offset} as its source offset.
   *
   * @param eventCount the change events of the version, tombstones not counted
   * @param changeTypeCounts the version's change rows that reached the topic, by {@code
   *     _change_type}
   */
  public SourceRecord end(
      Transaction transaction,
      long eventCount,
      Map<String, Long> changeTypeCounts,
      Map<String, ?> sourcePartition,
      Map<String, ?> offset) {
    return event(
        "END", transaction, new Counts(eventCount, changeTypeCounts), sourcePartition, offset);
  }

  /**
   * {@code record}, a change record of the transaction {@code id}, marked with it: in
   * record.format=envelope a change event gets the transaction block (a tombstone stays as it is),
   * in record.format=row the {@link #ID_HEADER} header.
   *
   * @param order the event's place in the transaction, from 1: total_order and
   *     data_collection_order, one and the same as a transaction holds one table
   */
  public SourceRecord mark(SourceRecord record, String id, long order) {
    if (format == RecordFormat.ROW) {
      // A copy: records may share their header list.
      Headers headers =
          record.headers().duplicate().add(ID_HEADER, new SchemaAndValue(Schema.STRING_SCHEMA, id));
      return record.newRecord(
          record.topic(),
          record.kafkaPartition(),
          record.keySchema(),
          record.key(),
          record.valueSchema(),
          record.value(),
          record.timestamp(),
          headers);
    }
    if (record.value() == null) {
      return record;
    }
    Object value;
    Schema valueSchema;
    if (output == OutputFormat.JSON) {
      String envelope = (String) record.value();
      StringBuilder text = new StringBuilder(envelope.length() + 96);
      text.append(envelope, 0, envelope.length() - 1).append(",\"transaction\":{\"id\":");
      JsonText.string(text, id);
      text.append(",\"total_order\":").append(order);
      text.append(",\"data_collection_order\":").append(order).append("}}");
      value = text.toString();
      valueSchema = record.valueSchema();
    } else {
      Struct envelope = (Struct) record.value();
      valueSchema = markedEnvelopes.computeIfAbsent(envelope.schema(), TransactionRecords::marked);
      Struct marked = new Struct(valueSchema);
      for (Field field : envelope.schema().fields()) {
        marked.put(field.name(), envelope.get(field));
      }
      value =
          marked.put(
              "transaction",
              new Struct(BLOCK_SCHEMA)
                  .put("id", id)
                  .put("total_order", order)
                  .put("data_collection_order", order));
    }
    return record.newRecord(
        record.topic(),
        record.kafkaPartition(),
        record.keySchema(),
        record.key(),
        valueSchema,
        value,
        record.timestamp(),
        record.headers());
  }

  /** {@code envelope} with Debezium's optional transaction field after its own. */
  private static Schema marked(Schema envelope) {
    SchemaBuilder builder = SchemaBuilder.struct().name(envelope.name());
    for (Field field : envelope.fields()) {
      builder.field(field.name(), field.schema());
    }
    return builder.field("transaction", BLOCK_SCHEMA).build();
  }

  private record Counts(long events, Map<String, Long> byChangeType) {}

  private SourceRecord event(
      String status,
      Transaction transaction,
      Counts counts,
      Map<String, ?> sourcePartition,
      Map<String, ?> offset) {
    if (output == OutputFormat.JSON) {
      return record(
          sourcePartition,
          offset,
          Schema.STRING_SCHEMA,
          jsonKey(transaction),
          Schema.STRING_SCHEMA,
          jsonValue(status, transaction, counts),
          transaction);
    }
    Struct value =
        new Struct(VALUE_SCHEMA)
            .put("status", status)
            .put("id", transaction.id())
            .put("ts_ms", transaction.commitTimestampMs())
            .put("commit_version", transaction.commitVersion())
            .put("operation", transaction.operation());
    if (counts != null) {
      value
          .put("event_count", counts.events())
          .put(
              "data_collections",
              List.of(
                  new Struct(DATA_COLLECTION_SCHEMA)
                      .put("data_collection", transaction.dataCollection())
                      .put("event_count", counts.events())
                      .put("change_type_counts", counts.byChangeType())));
    }
    return record(
        sourcePartition,
        offset,
        KEY_SCHEMA,
        new Struct(KEY_SCHEMA).put("id", transaction.id()),
        VALUE_SCHEMA,
        value,
        transaction);
  }

  private static String jsonKey(Transaction transaction) {
    StringBuilder key = new StringBuilder("{\"id\":");
    JsonText.string(key, transaction.id());
    return key.append('}').toString();
  }

  private static String jsonValue(String status, Transaction transaction, Counts counts) {
    StringBuilder value = new StringBuilder("{\"status\":");
    JsonText.string(value, status);
    value.append(",\"id\":");
    JsonText.string(value, transaction.id());
    if (counts == null) {
      value.append(",\"event_count\":null,\"data_collections\":null");
    } else {
      value.append(",\"event_count\":").append(counts.events());
      value.append(",\"data_collections\":[{\"data_collection\":");
      JsonText.string(value, transaction.dataCollection());
      value.append(",\"event_count\":").append(counts.events());
      value.append(",\"change_type_counts\":{");
      List<String> entries = new ArrayList<>(counts.byChangeType().keySet());
      for (int i = 0; i < entries.size(); i++) {
        if (i > 0) {
          value.append(',');
        }
        JsonText.string(value, entries.get(i));
        value.append(':').append(counts.byChangeType().get(entries.get(i)));
      }
      value.append("}}]");
    }
    value.append(",\"ts_ms\":").append(transaction.commitTimestampMs());
    value.append(",\"commit_version\":").append(transaction.commitVersion());
    value.append(",\"operation\":");
    if (transaction.operation() == null) {
      value.append("null");
    } else {
      JsonText.string(value, transaction.operation());
    }
    return value.append('}').toString();
  }

  private SourceRecord record(
      Map<String, ?> sourcePartition,
      Map<String, ?> offset,
      Schema keySchema,
      Object key,
      Schema valueSchema,
      Object value,
      Transaction transaction) {
    return new SourceRecord(
        sourcePartition,
        offset,
        topic,
        null,
        keySchema,
        key,
        valueSchema,
        value,
        transaction.commitTimestampMs());
  }
}
