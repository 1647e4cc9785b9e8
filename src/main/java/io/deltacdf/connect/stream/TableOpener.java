package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
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

  /** Where start.mode starts {@code table} now; opens the table for that. */
  public ChangePosition configuredStart(String table) {
    try (DeltaTable deltaTable = table(table)) {
      return configuredStart(deltaTable, deltaTable.latestSnapshot());
    } catch (DeltaFeedException e) {
      throw Redaction.toConnectException(e, config);
    }
  }

  /**
   * Where start.mode (with start.version or start.timestamp) starts a table without offset, as of
   * its {@code latest} snapshot.
   */
  public ChangePosition configuredStart(DeltaTable table, LatestSnapshot latest) {
    return table.resolveStart(config.start(), latest);
  }

  /**
   * The converter of the table's rows from {@code start} on, once it has checked that they
   * convert, up to the table's {@code latest} snapshot.
   *
   * @throws IllegalArgumentException naming the column at fault
   */
  public RecordConverter converter(
      String table, DeltaTable deltaTable, ChangePosition start, LatestSnapshot latest) {
    return converter(new TablePartition(table), deltaTable, start, latest);
  }

  private RecordConverter converter(
      TablePartition partition,
      DeltaTable deltaTable,
      ChangePosition start,
      LatestSnapshot latest) {
    String table = partition.table();
    RecordConverter converter =
        new RecordConverter(
            table,
            TableNames.nameOf(table),
            config.topicFor(table),
            partition.toMap(),
            config.keyColumnsFor(table),
            config.recordSettings(connectorName, connectorVersion),
            start);
    converter.requireConvertible(
        deltaTable.schemasAtStartAndLatest(start, latest), deltaTable::loggedSchemas);
    return converter;
  }

  /**
   * Opens a table and decides where its feed starts: run by the table's first read. A slice of a
   * snapshot never starts over from another snapshot: its history missing fails it.
   *
   * @param resumeAt the stored position, or where the connector told the task to start; null:
   *     start.mode
   */
  TableStream.Opened open(TablePartition partition, ChangePosition resumeAt) {
    String table = partition.table();
    log.info("Table {} is read through {}", partition.describe(), config.endpointOf(table));
    DeltaTable deltaTable = table(table);
    LatestSnapshot latest = deltaTable.latestSnapshot(); // one load for the whole open
    try {
      ChangePosition start;
      if (resumeAt != null) {
        start = resumePosition(partition, deltaTable, latest, resumeAt);
      } else {
        start = configuredStart(deltaTable, latest);
        log.info(
            "Table {} has no stored offset; start.mode={} starts it at {}",
            table,
            config.getString(DeltaCdfSourceConfig.START_MODE),
            start);
      }
      return new TableStream.Opened(deltaTable, start, converter(partition, deltaTable, start, latest));
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
      TablePartition partition,
      DeltaTable deltaTable,
      LatestSnapshot latest,
      ChangePosition stored) {
    String offset = OffsetCodec.toMap(stored).toString();
    try {
      deltaTable.checkStored(stored, offset, latest);
    } catch (DeltaFeedException e) {
      if (partition.slice() != null || !resnapshots(e)) {
        throw e;
      }
      return resnapshot(partition.table(), deltaTable, latest, e);
    }
    log.info("Table {} resumes from {}", partition.describe(), offset);
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
  ChangePosition resnapshot(
      String table, DeltaTable deltaTable, LatestSnapshot latest, DeltaFeedException cause) {
    ChangePosition snapshot = deltaTable.resolveStart(new StartSpec.Snapshot(), latest);
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
