package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a stream's table and decides where its feed starts: the stored offset once checked against
 * the table, else the configured start.
 */
final class TableOpener {

  private static final Logger log = LoggerFactory.getLogger(TableOpener.class);

  private final DeltaCdfSourceConfig config;
  private final ConfiguredTables tables;
  private final TableConverters converters;
  private final Resnapshots resnapshots;
  private final Redaction redaction;

  TableOpener(
      DeltaCdfSourceConfig config,
      ConfiguredTables tables,
      TableConverters converters,
      Resnapshots resnapshots,
      Redaction redaction) {
    this.config = config;
    this.tables = tables;
    this.converters = converters;
    this.resnapshots = resnapshots;
    this.redaction = redaction;
  }

  /** See {@link ConfiguredTables#discoveredAndGone}. */
  boolean discoveredAndGone(String table) {
    return tables.discoveredAndGone(table);
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
    DeltaTable deltaTable = tables.open(table);
    LatestSnapshot latest = deltaTable.latestSnapshot(); // one load for the whole open
    try {
      ChangePosition start;
      if (resumeAt != null) {
        start = resumePosition(partition, deltaTable, latest, resumeAt);
      } else {
        start = tables.start(deltaTable, latest);
        log.info(
            "Table {} has no stored offset; start.mode={} starts it at {}",
            table,
            config.getString(DeltaCdfSourceConfig.START_MODE),
            start);
      }
      return new TableStream.Opened(
          deltaTable, start, converters.checked(partition, deltaTable, start, latest));
    } catch (DeltaFeedException e) {
      deltaTable.close();
      throw e;
    } catch (IllegalArgumentException e) {
      deltaTable.close();
      throw redaction.toConnectException(e);
    }
  }

  /**
   * Where a table with a stored offset resumes: the offset, once checked against the table (it may
   * have been altered through the REST API). An offset whose history is gone follows
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
      if (partition.slice() != null || !resnapshots.apply(e)) {
        throw e;
      }
      return resnapshots.startOver(partition.table(), deltaTable, latest, e);
    }
    log.info("Table {} resumes from {}", partition.describe(), offset);
    return stored;
  }
}
