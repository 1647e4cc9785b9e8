package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.LoggedSchema;
import io.deltacdf.connect.offset.OffsetCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns one table's change rows, in feed order, into source records: key from the key columns, the
 * row (or a Debezium envelope) as value, the record timestamp {@code record.timestamp} asks for
 * (none, for the producer to stamp, or the commit time), and as source offset the position from
 * which a restart loses nothing.
 *
 * <p>A row can yield several records (a delete and its tombstone) or none (a filtered change type,
 * or an update image waiting for its partner). Every record but the last of a row carries the
 * position before the row, so that a restart after a partial send replays the whole row; while
 * update images wait, offsets stay before the earliest of them. The end of each version is told by
 * {@link #endVersion}, which releases what waited for it.
 *
 * <p>It keeps no position of its own: the caller, which owns the table's position, says where each
 * row starts, and learns from each {@link Converted} which position its records carry.
 */
public final class RecordConverter {

  private final String table;
  private final String tableName;
  private final String topic;
  private final Map<String, ?> sourcePartition;
  private final KeyColumns keyColumns;
  private final ColumnMasks masks;
  private final RecordSettings settings;
  private final ConnectTypes types;
  private final String schemaBase;
  private final JsonValues jsonValues;
  private final Map<FieldType.Struct, RowShape> shapes = new HashMap<>();
  private final Map<FieldType.Struct, ColumnMasks.MaskedSchema> maskedSchemas = new HashMap<>();
  private final EnvelopeEvents events;

  /** The current row's records before their offsets are set; reused from row to row. */
  private final List<PendingRecord> pending = new ArrayList<>(2);

  private final RecordHeaders headers = new RecordHeaders();

  /** Writes each record's offset; by default the position alone, as users write one by hand. */
  private OffsetEncoder offsets = OffsetCodec::toMap;

  private FieldType.Struct lastSchema;
  private RowShape lastShape;
  private FieldType.Struct lastRowSchema;
  private ColumnMasks.MaskedSchema lastMasked;
  private HiddenColumns maskedWith;

  /**
   * @param table the table's URI
   * @param tableName the table's short name, for schema names and the envelope's source
   */
  public RecordConverter(
      String table,
      String tableName,
      String topic,
      Map<String, ?> sourcePartition,
      List<String> keyColumns,
      RecordSettings settings) {
    this(table, tableName, topic, sourcePartition, keyColumns, settings, ColumnMasks.NONE);
  }

  /** As above, with the values of masked columns masked before the key is taken. */
  public RecordConverter(
      String table,
      String tableName,
      String topic,
      Map<String, ?> sourcePartition,
      List<String> keyColumns,
      RecordSettings settings,
      ColumnMasks masks) {
    this.table = table;
    this.masks = masks;
    this.tableName = tableName;
    this.topic = topic;
    this.sourcePartition = sourcePartition;
    this.keyColumns = new KeyColumns(table, keyColumns);
    this.settings = settings;
    this.types = new ConnectTypes(settings.temporalPrecision(), settings.fieldNameAdjustment());
    this.jsonValues = new JsonValues(settings.temporalPrecision(), settings.fieldNameAdjustment());
    this.schemaBase = SchemaNames.base(tableName);
    this.events = new EnvelopeEvents(table, tableName, settings);
  }

  /**
   * Checks that the feed's rows convert, and learns which column each key column stands for, so
   * that it is followed through renames: the latest schema still has the key columns, and its field
   * names do not collide.
   *
   * @param ends the schema at the feed's start and the latest one, oldest first
   * @param wholeLog every schema the log holds: read only for a key column named as it was called
   *     before the feed's start, or one that was dropped
   * @throws IllegalArgumentException naming the column at fault
   * @throws MaskTypeException for a mask on a column it cannot mask
   */
  public void requireConvertible(List<LoggedSchema> ends, Supplier<List<LoggedSchema>> wholeLog) {
    keyColumns.resolve(ends, wholeLog);
    // The masks learn each end's masked columns, oldest first, so a column renamed before the
    // latest schema keeps the mask its name at the start had.
    ends.forEach(end -> masked(end.schema()));
    LoggedSchema latest = ends.get(ends.size() - 1);
    shape(masked(latest.schema()).schema(), latest.version());
  }

  /**
   * The records for the next row of the feed (none, one, or a few).
   *
   * @param before the feed position the row starts at: the previous row's {@link
   *     ChangeRow#after()}, or where the feed (re)started
   */
  public Converted convert(ChangeRow unmasked, ChangePosition before, FieldType.Struct rowSchema) {
    ColumnMasks.MaskedSchema masked = masked(rowSchema);
    ChangeRow row = masked.apply(unmasked);
    FieldType.Struct schema = masked.schema();
    ChangePosition safeBefore = orElse(events.earliestWaitingImage(), before);
    RowShape shape = shape(schema, row.version());
    pending.clear();
    if (settings.format() == RecordFormat.ROW) {
      rowRecords(row, shape, pending);
    } else {
      events.add(row, before, shape, pending);
    }
    ChangePosition safeAfter =
        orElse(events.heldSnapshotRow(), orElse(events.earliestWaitingImage(), row.after()));
    return records(safeBefore, safeAfter);
  }

  /**
   * The records that the end of the current version (or snapshot) releases: update images left
   * without a partner, and in envelope format the snapshot's last row, marked as such.
   *
   * @param lastAfter the position after the last row converted, or where the feed (re)started
   */
  public Converted endVersion(ChangePosition lastAfter) {
    if (lastShape == null || settled()) {
      return Converted.NONE;
    }
    ChangePosition safeBefore = orElse(events.earliestWaitingImage(), lastAfter);
    pending.clear();
    events.release(lastShape, pending);
    return records(safeBefore, lastAfter);
  }

  /** Every pending record but the last carries {@code before}; the last carries {@code after}. */
  private Converted records(ChangePosition before, ChangePosition after) {
    if (pending.isEmpty()) {
      return Converted.NONE;
    }
    Schema keySchema = lastShape.keySchema();
    if (pending.size() == 1) {
      return new Converted(List.of(record(pending.get(0), keySchema, after)), after);
    }
    List<SourceRecord> records = new ArrayList<>(pending.size());
    for (int i = 0; i < pending.size(); i++) {
      records.add(record(pending.get(i), keySchema, i == pending.size() - 1 ? after : before));
    }
    return new Converted(records, after);
  }

  /**
   * Whether no update image waits for its partner. Records then carry the feed position, so a
   * transaction may end after them.
   */
  public boolean noImagesWaiting() {
    return events.earliestWaitingImage() == null;
  }

  /**
   * Where the returned records end when only a snapshot row is held back (envelope format holds
   * each one until the next comes, to mark the snapshot's last): the position before it. Null when
   * none is held.
   */
  public ChangePosition heldSnapshotRow() {
    return events.heldSnapshotRow();
  }

  /**
   * Whether every converted row's records have been returned, so that the position after the last
   * converted row is where a restart would continue.
   */
  public boolean settled() {
    return noImagesWaiting() && events.heldSnapshotRow() == null;
  }

  /**
   * Records carry the offsets {@code offsets} writes: the table's position object, whose offsets
   * name the table, so that a restart knows a table re-created at the same path from this one.
   */
  public void offsetsBy(OffsetEncoder offsets) {
    this.offsets = offsets;
  }

  /** Forgets waiting images: the feed starts over (e.g. at a new snapshot). */
  public void restart() {
    events.clear();
  }

  private void rowRecords(ChangeRow row, RowShape shape, List<PendingRecord> out) {
    // change.types chooses among the standard types; rows of other types always pass, as they
    // do in Spark's table_changes.
    if (row.type() != ChangeType.CUSTOM && !settings.changeTypes().contains(row.type())) {
      return;
    }
    Object value = shape.row(row);
    Object key = shape.key(row, value);
    out.add(new PendingRecord(key, shape.rowSchema(), value, row));
    if (row.type() == ChangeType.DELETE) {
      PendingRecord.addTombstone(settings, key, row, out);
    }
  }

  private static ChangePosition orElse(ChangePosition position, ChangePosition otherwise) {
    return position != null ? position : otherwise;
  }

  private SourceRecord record(PendingRecord pending, Schema keySchema, ChangePosition offset) {
    return new SourceRecord(
        sourcePartition,
        offsets.offsetOf(offset),
        topic,
        null,
        keySchema,
        pending.key(),
        pending.valueSchema(),
        pending.value(),
        timestamp(pending.change()),
        headers.of(pending.change()));
  }

  /** Null leaves the timestamp to the producer: the time of sending. */
  private Long timestamp(ChangeRow change) {
    return settings.recordTimestamp() == RecordTimestamp.COMMIT ? change.commitTimestampMs() : null;
  }

  /** How rows of {@code rowSchema} are masked, and the schema they have then. */
  private ColumnMasks.MaskedSchema masked(FieldType.Struct rowSchema) {
    if (masks.hidden() != maskedWith) {
      // A column newly known as masked: plans made before may leave it in clear.
      maskedSchemas.clear();
      lastRowSchema = null;
      maskedWith = masks.hidden();
    }
    if (rowSchema != lastRowSchema) {
      lastMasked = maskedSchemas.computeIfAbsent(rowSchema, masks::masked);
      lastRowSchema = rowSchema;
    }
    return lastMasked;
  }

  /** The shape of rows of {@code schema}, the schema of rows of {@code version}. */
  private RowShape shape(FieldType.Struct schema, long version) {
    // A batch's rows share one schema instance: skip hashing the schema for every row.
    if (schema != lastSchema) {
      lastShape = shapes.computeIfAbsent(schema, s -> newShape(s, version));
      lastSchema = schema;
    }
    return lastShape;
  }

  private RowShape newShape(FieldType.Struct schema, long version) {
    List<KeyColumns.KeyField> keyFields = keyColumns.in(schema, version);
    if (settings.outputFormat() == OutputFormat.JSON) {
      return new JsonShape(schema, keyFields, jsonValues, settings.metadataFields());
    }
    boolean envelope = settings.format() == RecordFormat.ENVELOPE;
    SchemaMapping schemas =
        new SchemaMapping(
            schemaBase, schema, keyFields, types, settings.metadataFields(), envelope);
    return new StructShape(
        schemas, envelope ? EnvelopeSchema.of(schemaBase, schemas.rowSchema()) : null);
  }
}
