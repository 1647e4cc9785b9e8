package io.deltacdf.connect.convert;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium's change-event envelope around one table's row schema, so that Debezium-aware sinks and
 * Debezium's own transforms (e.g. ExtractNewRecordState) read our events as theirs.
 */
final class EnvelopeSchema {

  static final String BEFORE = "before";
  static final String AFTER = "after";
  static final String SOURCE = "source";
  static final String OP = "op";
  static final String TS_MS = "ts_ms";

  /** The envelope's source.connector. */
  static final String CONNECTOR = "delta-cdf";

  /** Where a change comes from: the connector, the table and the commit. */
  static final Schema SOURCE_SCHEMA =
      SchemaBuilder.struct()
          .name(SchemaNames.SOURCE)
          .field("version", Schema.STRING_SCHEMA)
          .field("connector", Schema.STRING_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("ts_ms", Schema.INT64_SCHEMA)
          .field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
          .field("table", Schema.STRING_SCHEMA)
          .field("path", Schema.STRING_SCHEMA)
          .field("commit_version", Schema.INT64_SCHEMA)
          .build();

  private EnvelopeSchema() {}

  /** The envelope ({@code <base>.Envelope}) whose before and after are {@code optionalRow}. */
  static Schema of(String schemaBase, Schema optionalRow) {
    return SchemaBuilder.struct()
        .name(schemaBase + ".Envelope")
        .field(BEFORE, optionalRow)
        .field(AFTER, optionalRow)
        .field(SOURCE, SOURCE_SCHEMA)
        .field(OP, Schema.STRING_SCHEMA)
        .field(TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
        .build();
  }

  /**
   * Where one change comes from: the envelope's {@code source} block.
   *
   * @param snapshot whether the change is part of the initial snapshot
   */
  record Source(
      String connectorVersion,
      String connectorName,
      String tableName,
      String tablePath,
      long commitVersion,
      long commitTimestampMs,
      SnapshotMark snapshot) {}

  static Struct source(Source source) {
    return new Struct(SOURCE_SCHEMA)
        .put("version", source.connectorVersion())
        .put("connector", CONNECTOR)
        .put("name", source.connectorName())
        .put("ts_ms", source.commitTimestampMs())
        .put("snapshot", source.snapshot().value())
        .put("table", source.tableName())
        .put("path", source.tablePath())
        .put("commit_version", source.commitVersion());
  }
}
