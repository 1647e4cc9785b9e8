package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.offset.ChangeOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns one table's change rows into source records: key from the key columns, the row as value,
 * change metadata as headers, the commit time as record timestamp, and the position after the row
 * as source offset.
 */
public final class RecordConverter {

  public static final String CHANGE_TYPE_HEADER = "_change_type";
  public static final String COMMIT_VERSION_HEADER = "_commit_version";
  public static final String COMMIT_TIMESTAMP_HEADER = "_commit_timestamp";

  private final String table;
  private final String topic;
  private final Map<String, ?> sourcePartition;
  private final List<String> keyColumns;
  private final Map<FieldType.Struct, SchemaMapping> mappings = new HashMap<>();

  public RecordConverter(
      String table, String topic, Map<String, ?> sourcePartition, List<String> keyColumns) {
    this.table = table;
    this.topic = topic;
    this.sourcePartition = sourcePartition;
    this.keyColumns = List.copyOf(keyColumns);
  }

  /**
   * Checks that the key columns exist in {@code schema}.
   *
   * @throws IllegalArgumentException naming the missing column and the table's columns
   */
  public void requireKeyColumns(FieldType.Struct schema) {
    mapping(schema);
  }

  public SourceRecord convert(ChangeRow row, FieldType.Struct schema) {
    SchemaMapping mapping = mapping(schema);
    Struct value = mapping.value(row.values());
    ConnectHeaders headers = new ConnectHeaders();
    headers.addString(CHANGE_TYPE_HEADER, row.type().label());
    headers.addLong(COMMIT_VERSION_HEADER, row.version());
    headers.addLong(COMMIT_TIMESTAMP_HEADER, row.commitTimestampMs());
    return new SourceRecord(
        sourcePartition,
        ChangeOffset.toMap(row.after()),
        topic,
        null,
        mapping.keySchema(),
        mapping.key(value),
        mapping.valueSchema(),
        value,
        row.commitTimestampMs(),
        headers);
  }

  private SchemaMapping mapping(FieldType.Struct schema) {
    return mappings.computeIfAbsent(schema, s -> new SchemaMapping(table, s, keyColumns));
  }
}
