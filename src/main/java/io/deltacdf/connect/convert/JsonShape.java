package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import java.util.List;
import org.apache.kafka.connect.data.Schema;

/**
 * Rows as JSON text for {@code StringConverter}, written straight from the decoded column values
 * with no Struct in between: the same text JsonConverter ({@code schemas.enable=false}, {@code
 * decimal.format=NUMERIC}) writes for {@link StructShape}'s structs, field for field.
 */
final class JsonShape implements RowShape {

  private final String[] prefixes;
  private final JsonValues.Writer[] writers;
  private final boolean metadataFields;

  /** Per key field: its quoted name and the column it takes its value from. */
  private final String[] keyPrefixes;

  private final int[] keySources;

  /** The length of the last row's text, to size the next one's buffer. */
  private int lastLength = 64;

  JsonShape(
      FieldType.Struct schema,
      List<KeyColumns.KeyField> keyFields,
      JsonValues values,
      boolean metadataFields) {
    List<FieldType.Field> fields = schema.fields();
    // The writer of the whole row checks field names for collisions as the struct form does.
    values.writer(schema);
    prefixes = new String[fields.size()];
    writers = new JsonValues.Writer[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      prefixes[i] = values.fieldPrefix(fields.get(i).name());
      writers[i] = values.writer(fields.get(i).type());
    }
    this.metadataFields = metadataFields;
    keyPrefixes = new String[keyFields.size()];
    keySources = new int[keyFields.size()];
    for (int i = 0; i < keyFields.size(); i++) {
      keyPrefixes[i] = values.fieldPrefix(keyFields.get(i).name());
      keySources[i] = keyFields.get(i).column();
    }
  }

  @Override
  public Schema keySchema() {
    return keySources.length == 0 ? null : Schema.OPTIONAL_STRING_SCHEMA;
  }

  @Override
  public Schema rowSchema() {
    return Schema.STRING_SCHEMA;
  }

  @Override
  public Schema envelopeSchema() {
    return Schema.STRING_SCHEMA;
  }

  @Override
  public Object row(ChangeRow change) {
    Object[] values = change.values();
    StringBuilder out = new StringBuilder(lastLength + 16);
    out.append('{');
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(prefixes[i]);
      JsonValues.writeNullable(out, writers[i], values[i]);
    }
    if (metadataFields) {
      out.append(values.length > 0 ? "," : "").append("\"_change_type\":");
      JsonText.string(out, change.label());
      out.append(",\"_commit_version\":").append(change.version());
      out.append(",\"_commit_timestamp\":").append(change.commitTimestampMs());
    }
    lastLength = out.append('}').length();
    return out.toString();
  }

  @Override
  public Object key(ChangeRow change, Object row) {
    if (keySources.length == 0) {
      return null;
    }
    Object[] values = change.values();
    StringBuilder out = new StringBuilder(32).append('{');
    for (int i = 0; i < keySources.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(keyPrefixes[i]);
      JsonValues.writeNullable(out, writers[keySources[i]], values[keySources[i]]);
    }
    return out.append('}').toString();
  }

  @Override
  public Object envelope(
      EnvelopeOp op, Object before, Object after, EnvelopeSchema.Source source, long tsMs) {
    StringBuilder out =
        new StringBuilder(
            (before == null ? 4 : ((String) before).length())
                + (after == null ? 4 : ((String) after).length())
                + 256);
    out.append("{\"before\":").append((String) before);
    out.append(",\"after\":").append((String) after);
    out.append(",\"source\":{\"version\":");
    JsonText.string(out, source.connectorVersion());
    out.append(",\"connector\":");
    JsonText.string(out, EnvelopeSchema.CONNECTOR);
    out.append(",\"name\":");
    JsonText.string(out, source.connectorName());
    out.append(",\"ts_ms\":").append(source.commitTimestampMs());
    out.append(",\"snapshot\":");
    JsonText.string(out, source.snapshot().value());
    out.append(",\"table\":");
    JsonText.string(out, source.tableName());
    out.append(",\"path\":");
    JsonText.string(out, source.tablePath());
    out.append(",\"commit_version\":").append(source.commitVersion());
    out.append("},\"op\":\"").append(op.code()).append("\",\"ts_ms\":").append(tsMs).append('}');
    return out.toString();
  }
}
