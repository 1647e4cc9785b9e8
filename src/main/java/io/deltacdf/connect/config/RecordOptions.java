package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.CHANGE_TYPES;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.FIELD_NAME_ADJUSTMENT;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.KEY_COLUMNS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.MAX_PENDING_IMAGES;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.METADATA_FIELDS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.OUTPUT_FORMAT;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.RECORD_FORMAT;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.RECORD_TIMESTAMP;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TEMPORAL_PRECISION;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TOMBSTONES_ON_DELETE;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.convert.FieldNameAdjustment;
import io.deltacdf.connect.convert.OutputFormat;
import io.deltacdf.connect.convert.RecordFormat;
import io.deltacdf.connect.convert.RecordSettings;
import io.deltacdf.connect.convert.RecordTimestamp;
import io.deltacdf.connect.convert.TemporalPrecision;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The settings of the Records group: how change rows become records. */
final class RecordOptions {

  private static final List<String> ALL_CHANGE_TYPES =
      ChangeType.STANDARD.stream().map(ChangeType::label).toList();

  private RecordOptions() {}

  static void define(ConfigDef def, String group) {
    int order = 0;
    def.define(
        RECORD_FORMAT,
        Type.STRING,
        EnumSettings.valueOf(RecordFormat.ROW),
        Validators.oneOf(RecordFormat.class),
        Importance.HIGH,
        "The record value. row = the changed row, with _change_type, _commit_version and"
            + " _commit_timestamp as headers; envelope = a Debezium change event (before, after,"
            + " op c/u/d/r, ts_ms, source) where an update's pre- and post-image become one 'u'"
            + " event, paired by key (needs key columns for every table).",
        group,
        ++order,
        Width.SHORT,
        "Record format");
    def.define(
        CHANGE_TYPES,
        Type.LIST,
        String.join(",", ALL_CHANGE_TYPES),
        Validators.subsetOf(ALL_CHANGE_TYPES),
        Importance.MEDIUM,
        "The change types that become records, e.g. insert,update_postimage,delete to drop"
            + " pre-images, or insert for an append-only stream. Filtered rows still advance the"
            + " stored position. With record.format=envelope, 'u' events need update_postimage,"
            + " and their 'before' is filled only with update_preimage. Rows whose _change_type"
            + " is none of these four (some writers use other values) always pass in"
            + " record.format=row, and fail the task in record.format=envelope.",
        group,
        ++order,
        Width.LONG,
        "Change types");
    def.define(
        METADATA_FIELDS,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "With record.format=row: also put _change_type, _commit_version and _commit_timestamp"
            + " in the value, after the table's columns, for sinks that cannot see headers (e.g."
            + " an audit table through the JDBC sink).",
        group,
        ++order,
        Width.SHORT,
        "Metadata in the value");
    def.define(
        TOMBSTONES_ON_DELETE,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        "Whether each delete of a keyed table is followed by a tombstone (the same key, a null"
            + " value), so compacted topics and JDBC/Elasticsearch sinks remove the row. The"
            + " delete's position is stored only with its tombstone. Key-less tables never get"
            + " tombstones.",
        group,
        ++order,
        Width.SHORT,
        "Tombstones on delete");
    def.define(
        TEMPORAL_PRECISION,
        Type.STRING,
        EnumSettings.valueOf(TemporalPrecision.MILLISECONDS),
        Validators.oneOf(TemporalPrecision.class),
        Importance.MEDIUM,
        "How timestamp and timestamp_ntz columns are written. milliseconds = Connect Timestamp"
            + " (every sink knows it; Delta's microseconds are truncated); microseconds = int64"
            + " epoch microseconds named io.debezium.time.MicroTimestamp, lossless.",
        group,
        ++order,
        Width.SHORT,
        "Timestamp precision");
    def.define(
        FIELD_NAME_ADJUSTMENT,
        Type.STRING,
        EnumSettings.valueOf(FieldNameAdjustment.NONE),
        Validators.oneOf(FieldNameAdjustment.class),
        Importance.MEDIUM,
        "none = field names are the column names; avro = characters outside [A-Za-z0-9_]"
            + " become '_' and a leading digit gets a '_' prefix, so Avro converters accept"
            + " names that column mapping allows (spaces, dots, dashes, unicode). Two columns"
            + " that would get the same name are an error.",
        group,
        ++order,
        Width.SHORT,
        "Field name adjustment");
    def.define(
        MAX_PENDING_IMAGES,
        Type.INT,
        100_000,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        "With record.format=envelope: the most update images held while they wait for their"
            + " partner image. Delta writes the two images of an update side by side, so few"
            + " wait; but a version read from its data files (change.source=derived or"
            + " row-tracking, or auto where the version has no Change Data Feed) that rewrites"
            + " files yields the pre-images of the files it removes apart from the post-images of"
            + " the files it adds, so up to one image per updated row of the version waits."
            + " Beyond this bound the task stops with an error rather than use unbounded memory.",
        group,
        ++order,
        Width.SHORT,
        "Pending update images");
    def.define(
        OUTPUT_FORMAT,
        Type.STRING,
        EnumSettings.valueOf(OutputFormat.STRUCT),
        Validators.oneOf(OutputFormat.class),
        Importance.MEDIUM,
        "struct = keys and values are Connect structs with schemas, for any converter (JSON,"
            + " Avro, Protobuf); json = keys and values are JSON text, written straight from the"
            + " table's values, for key.converter and value.converter"
            + " org.apache.kafka.connect.storage.StringConverter: the same bytes as JsonConverter"
            + " with schemas.enable=false and decimal.format=NUMERIC, at less cost. Works with"
            + " both record formats, tombstones, heartbeats and exactly-once; other converters"
            + " would see strings, not structs.",
        group,
        ++order,
        Width.SHORT,
        "Output format");
    def.define(
        RECORD_TIMESTAMP,
        Type.STRING,
        EnumSettings.valueOf(RecordTimestamp.PRODUCER),
        Validators.oneOf(RecordTimestamp.class),
        Importance.MEDIUM,
        "The Kafka timestamp of data records. producer = none of the connector's own: the"
            + " producer stamps each record when it sends it, as Spark's Kafka sink does without a"
            + " timestamp column; the commit time stays in the _commit_timestamp header (and in"
            + " the value with record.metadata.fields, in source.ts_ms of an envelope). commit = the"
            + " commit time, for consumers that order or window by it. Retention risk: time-based"
            + " retention (retention.ms, 7 days by default) deletes records by their timestamp, so"
            + " with commit the snapshot of a table unchanged for longer than retention.ms, and the"
            + " changes of older versions, are deleted at the broker's next retention check,"
            + " minutes after they were sent, and never sent again. Use commit only on topics whose"
            + " retention.ms is -1 or longer than the age of the oldest commit streamed.",
        group,
        ++order,
        Width.SHORT,
        "Record timestamp");
  }

  /** How records look, for a connector named {@code connectorName}. */
  static RecordSettings settings(
      AbstractConfig config, String connectorName, String connectorVersion) {
    Set<ChangeType> changeTypes = EnumSet.noneOf(ChangeType.class);
    for (String type : config.getList(CHANGE_TYPES)) {
      if (!type.isBlank()) {
        changeTypes.add(ChangeType.fromLabel(type.trim().toLowerCase(Locale.ROOT)));
      }
    }
    return new RecordSettings(
        EnumSettings.parse(RecordFormat.class, config.getString(RECORD_FORMAT)),
        changeTypes,
        config.getBoolean(METADATA_FIELDS),
        config.getBoolean(TOMBSTONES_ON_DELETE),
        EnumSettings.parse(TemporalPrecision.class, config.getString(TEMPORAL_PRECISION)),
        EnumSettings.parse(FieldNameAdjustment.class, config.getString(FIELD_NAME_ADJUSTMENT)),
        config.getInt(MAX_PENDING_IMAGES),
        connectorName,
        connectorVersion,
        EnumSettings.parse(OutputFormat.class, config.getString(OUTPUT_FORMAT)),
        EnumSettings.parse(RecordTimestamp.class, config.getString(RECORD_TIMESTAMP)));
  }

  static void problems(DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    boolean envelope =
        EnumSettings.parse(RecordFormat.class, config.getString(RECORD_FORMAT))
            == RecordFormat.ENVELOPE;
    if (envelope && config.getBoolean(METADATA_FIELDS)) {
      DeltaCdfSourceConfig.add(
          problems,
          METADATA_FIELDS,
          "record.metadata.fields applies to record.format=row; an envelope carries the change"
              + " type in 'op' and the commit in 'source': remove record.metadata.fields");
    }
    if (envelope) {
      for (String table : config.namedTables()) {
        if (config.keyColumnsFor(table).isEmpty()) {
          DeltaCdfSourceConfig.add(
              problems,
              KEY_COLUMNS,
              "record.format=envelope pairs each update's pre- and post-image by key, but table "
                  + table
                  + " has no key columns: set key.columns (or key.columns.by.table for '"
                  + TableNames.nameOf(table)
                  + "'), or use record.format=row");
        }
      }
      if (!config.tableRoots().isEmpty() && config.getList(KEY_COLUMNS).isEmpty()) {
        DeltaCdfSourceConfig.add(
            problems,
            KEY_COLUMNS,
            "record.format=envelope pairs each update's pre- and post-image by key, and the"
                + " tables found below delta.tables.root get key.columns: set it, or use"
                + " record.format=row");
      }
    }
  }
}
