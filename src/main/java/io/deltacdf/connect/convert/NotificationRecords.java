package io.deltacdf.connect.convert;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Notification records for notification.sink.topic.name, shaped as Debezium's sink channel shapes
 * them: key {id}, value {id, aggregate_type, type, additional_data, timestamp}. A notification
 * about a table carries the table's partition and its current offset, as Debezium's do, so that it
 * is also a heartbeat; one about no table (a malformed signal) carries neither.
 */
public final class NotificationRecords {

  static final Schema KEY_SCHEMA =
      SchemaBuilder.struct()
          .name("io.deltacdf.connect.NotificationKey")
          .field("id", Schema.STRING_SCHEMA)
          .build();

  static final Schema VALUE_SCHEMA =
      SchemaBuilder.struct()
          .name("io.deltacdf.connect.Notification")
          .field("id", Schema.STRING_SCHEMA)
          .field("aggregate_type", Schema.STRING_SCHEMA)
          .field("type", Schema.STRING_SCHEMA)
          .field(
              "additional_data",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).build())
          .field("timestamp", Schema.INT64_SCHEMA)
          .build();

  private final String topic;
  private final OutputFormat format;

  /**
   * @param format structs, or in json output format the JSON text JsonConverter makes of them
   */
  public NotificationRecords(String topic, OutputFormat format) {
    this.topic = topic;
    this.format = format;
  }

  /**
   * The record of {@code notification}.
   *
   * @param sourcePartition the partition of the table it is about, or null
   * @param offset the table's current offset, or null
   */
  public SourceRecord record(
      Notification notification, Map<String, ?> sourcePartition, Map<String, ?> offset) {
    if (format == OutputFormat.JSON) {
      StringBuilder key = new StringBuilder("{\"id\":");
      JsonText.string(key, notification.id());
      key.append('}');
      return new SourceRecord(
          sourcePartition,
          offset,
          topic,
          null,
          Schema.STRING_SCHEMA,
          key.toString(),
          Schema.STRING_SCHEMA,
          json(notification),
          notification.timestamp());
    }
    Struct key = new Struct(KEY_SCHEMA).put("id", notification.id());
    Struct value =
        new Struct(VALUE_SCHEMA)
            .put("id", notification.id())
            .put("aggregate_type", notification.aggregateType())
            .put("type", notification.type())
            .put("additional_data", new TreeMap<>(notification.additionalData()))
            .put("timestamp", notification.timestamp());
    return new SourceRecord(
        sourcePartition,
        offset,
        topic,
        null,
        KEY_SCHEMA,
        key,
        VALUE_SCHEMA,
        value,
        notification.timestamp());
  }

  /** The notification as one JSON object, with the value's field names. */
  public static String json(Notification notification) {
    StringBuilder out = new StringBuilder("{\"id\":");
    JsonText.string(out, notification.id());
    out.append(",\"aggregate_type\":");
    JsonText.string(out, notification.aggregateType());
    out.append(",\"type\":");
    JsonText.string(out, notification.type());
    out.append(",\"additional_data\":{");
    boolean first = true;
    for (Map.Entry<String, String> entry :
        new TreeMap<>(notification.additionalData()).entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      JsonText.string(out, entry.getKey());
      out.append(':');
      JsonText.string(out, entry.getValue());
    }
    return out.append("},\"timestamp\":").append(notification.timestamp()).append('}').toString();
  }
}
