package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangePosition;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Heartbeat records: they carry a table's position as their source offset, so that Connect stores a
 * position that no change record carries (Connect stores offsets only with records). Consumers of
 * the change topics never see them; they go to a topic of their own.
 */
public final class HeartbeatRecords {

  static final Schema KEY_SCHEMA =
      SchemaBuilder.struct()
          .name("io.deltacdf.connect.HeartbeatKey")
          .field("table", Schema.STRING_SCHEMA)
          .build();

  static final Schema VALUE_SCHEMA =
      SchemaBuilder.struct()
          .name("io.deltacdf.connect.Heartbeat")
          .field("table", Schema.STRING_SCHEMA)
          .field("version", Schema.INT64_SCHEMA)
          .field("ts_ms", Schema.INT64_SCHEMA)
          .build();

  private final String topic;
  private final OutputFormat format;

  /**
   * @param format structs, or in json output format the JSON text JsonConverter makes of them
   */
  public HeartbeatRecords(String topic, OutputFormat format) {
    this.topic = topic;
    this.format = format;
  }

  /**
   * A heartbeat for {@code table} at {@code position}.
   *
   * @param sourcePartition the table's source partition, as its change records carry it
   * @param offset the offset of {@code position}, as the table's change records would carry it
   */
  public SourceRecord heartbeat(
      String table,
      Map<String, ?> sourcePartition,
      ChangePosition position,
      Map<String, ?> offset,
      long nowMs) {
    if (format == OutputFormat.JSON) {
      StringBuilder key = new StringBuilder("{\"table\":");
      JsonText.string(key, table);
      StringBuilder value = new StringBuilder(key).append(",\"version\":");
      value.append(position.version()).append(",\"ts_ms\":").append(nowMs).append('}');
      return record(
          sourcePartition,
          offset,
          Schema.STRING_SCHEMA,
          key.append('}').toString(),
          Schema.STRING_SCHEMA,
          value.toString(),
          nowMs);
    }
    Struct key = new Struct(KEY_SCHEMA).put("table", table);
    Struct value =
        new Struct(VALUE_SCHEMA)
            .put("table", table)
            .put("version", position.version())
            .put("ts_ms", nowMs);
    return record(sourcePartition, offset, KEY_SCHEMA, key, VALUE_SCHEMA, value, nowMs);
  }

  private SourceRecord record(
      Map<String, ?> sourcePartition,
      Map<String, ?> offset,
      Schema keySchema,
      Object key,
      Schema valueSchema,
      Object value,
      long nowMs) {
    return new SourceRecord(
        sourcePartition, offset, topic, null, keySchema, key, valueSchema, value, nowMs);
  }
}
