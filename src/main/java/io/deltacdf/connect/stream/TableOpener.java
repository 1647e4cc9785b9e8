package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.EnumSettings;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.StartSpec;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a table and decides where its feed starts: the stored offset once checked against the
 * table, else start.mode. The connector's validation opens tables the same way.
 */
public final class TableOpener {

  private static final Logger log = LoggerFactory.getLogger(TableOpener.class);

  private final DeltaCdfSourceConfig config;
  private final String connectorName;
  private final String connectorVersion;

  public TableOpener(DeltaCdfSourceConfig config, String connectorName, String connectorVersion) {
    this.config = config;
    this.connectorName = connectorName;
    this.connectorVersion = connectorVersion;
  }

  /** The table, read through the configured storage and change source. */
  public DeltaTable table(String table) {
    return DeltaTable.open(table, config.hadoopSettings(), config.filesOutsideTableAllowed())
        .withChangeSource(config.changeSource(), config.keyColumnsFor(table))
        .withDiffMemoryRows(config.derivedDiffMemoryRows());
  }

  /** Where start.mode (with start.version or start.timestamp) starts a table without offset. */
  public ChangePosition configuredStart(DeltaTable table) {
    StartSpec spec =
        switch (config.startMode()) {
          case SNAPSHOT -> new StartSpec.Snapshot();
          case EARLIEST -> new StartSpec.Earliest();
          case LATEST -> new StartSpec.Latest();
          case VERSION -> new StartSpec.AtVersion(config.startVersion().orElseThrow());
          case TIMESTAMP ->
              new StartSpec.AtTimestamp(config.startTimestamp().orElseThrow().toEpochMilli());
        };
    return table.resolveStart(spec);
  }

  /**
   * The converter of the table's rows from {@code start} on, once it has checked that they
   * convert.
   *
   * @throws IllegalArgumentException naming the column at fault
   */
  public RecordConverter converter(String table, DeltaTable deltaTable, ChangePosition start) {
    RecordConverter converter =
        new RecordConverter(
            table,
            TableNames.nameOf(table),
            config.topicFor(table),
            new TablePartition(table).toMap(),
            config.keyColumnsFor(table),
            config.recordSettings(connectorName, connectorVersion),
            start);
    converter.requireConvertible(
        deltaTable.schemasAtStartAndLatest(start), deltaTable::loggedSchemas);
    return converter;
  }

  /** The position Connect stored for the table, null when it has none. */
  static ChangePosition storedPosition(
      String table, Map<Map<String, String>, Map<String, Object>> stored) {
    Map<String, Object> offset = stored.get(new TablePartition(table).toMap());
    if (offset == null) {
      return null;
    }
    try {
      return OffsetCodec.fromMap(offset);
    } catch (IllegalArgumentException e) {
      throw new ConnectException("Table " + table + ": " + e.getMessage(), e);
    }
  }

  /** Opens a table and decides where its feed starts: run by the table's first read. */
  TableStream.Opened open(String table, ChangePosition storedPosition) {
    log.info("Table {} is read through {}", table, config.endpointOf(table));
    DeltaTable deltaTable = table(table);
    try {
      ChangePosition start;
      if (storedPosition != null) {
        start = resumePosition(table, deltaTable, storedPosition);
      } else {
        start = configuredStart(deltaTable);
        log.info(
            "Table {} has no stored offset; start.mode={} starts it at {}",
            table,
            EnumSettings.valueOf(config.startMode()),
            start);
      }
      return new TableStream.Opened(deltaTable, start, converter(table, deltaTable, start));
    } catch (DeltaFeedException e) {
      deltaTable.close();
      throw e;
    } catch (IllegalArgumentException e) {
      deltaTable.close();
      throw new ConnectException(redact(e.getMessage()), e);
    }
  }

  /**
   * Where a table with a stored offset resumes: the offset, once checked against the table (it
   * may have been altered through the REST API). An offset whose history is gone follows
   * on.history.missing, with a warning naming the offset before a re-snapshot; one after the
   * table's latest version always fails.
   */
  private ChangePosition resumePosition(
      String table, DeltaTable deltaTable, ChangePosition stored) {
    String offset = OffsetCodec.toMap(stored).toString();
    try {
      deltaTable.checkStored(stored, offset);
    } catch (DeltaFeedException e) {
      if (!resnapshots(e)) {
        throw e;
      }
      return resnapshot(table, deltaTable, e);
    }
    log.info("Table {} resumes from its stored offset {}", table, offset);
    return stored;
  }

  /**
   * Whether on.history.missing=resnapshot applies to {@code e}: the changes to read next are
   * gone, or the table was replaced.
   */
  boolean resnapshots(DeltaFeedException e) {
    return config.resnapshotOnMissingHistory()
        && (e.kind() == DeltaFeedException.Kind.HISTORY_MISSING
            || e.kind() == DeltaFeedException.Kind.TABLE_REPLACED);
  }

  /**
   * Where a table starts over after {@code cause}: a snapshot of its latest version, with a
   * warning that names the cause.
   */
  ChangePosition resnapshot(String table, DeltaTable deltaTable, DeltaFeedException cause) {
    ChangePosition snapshot = deltaTable.resolveStart(new StartSpec.Snapshot());
    log.warn(
        "{} on.history.missing=resnapshot: table {} starts over from a snapshot at {}",
        redact(cause.getMessage()),
        table,
        snapshot);
    return snapshot;
  }

  /** {@code message} without the configured secrets, for logs and errors. */
  String redact(String message) {
    return Redaction.redact(message, config);
  }
}
