package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a stream's table and decides where its feed starts: the stored offset once checked against
 * the table, else the configured start.
 */
final class TableOpener {

  private static final Logger log = LoggerFactory.getLogger(TableOpener.class);

  /** How an opened table's start was found. */
  enum StartKind {
    /** At the stored offset. */
    RESUMED,
    /** Where the connector planned it, or start.mode: nothing was stored. */
    CONFIGURED,
    /** From a snapshot, as the stored offset's history is gone (on.history.missing=resnapshot). */
    RESNAPSHOT,
    /** By start.mode, as the stored offset belongs to another table that had the path or name. */
    ANOTHER_TABLE
  }

  /**
   * An opened table, the position its feed starts at, how that was found, its converter, and the
   * last version it reads ({@link RunEnd#UNBOUNDED} unless the run is bounded).
   */
  record Opened(
      DeltaTable table,
      ChangePosition start,
      StartKind kind,
      RecordConverter converter,
      long lastVersion) {}

  private final DeltaCdfSourceConfig config;
  private final ConfiguredTables tables;
  private final TableConverters converters;
  private final Resnapshots resnapshots;
  private final Redaction redaction;
  private final RunEnd runEnd;

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
    this.runEnd = new RunEnd(config.end());
  }

  /** See {@link ConfiguredTables#discoveredAndGone}. */
  boolean discoveredAndGone(String table) {
    return tables.discoveredAndGone(table);
  }

  /**
   * Opens a table (its shard's rows only, for a shard) and decides where its feed starts: run by
   * the table's first read. A slice of a snapshot never starts over from another snapshot: its
   * history missing fails it, and so does an offset stored for another table.
   *
   * @param position the partition's position: what Connect stored for it, and where the connector
   *     planned it to start; told where the feed starts, and as which table
   */
  Opened open(TablePartition partition, TablePosition position) {
    String table = partition.table();
    log.info(
        "Table {} is read through {}", partition.describe(), config.stores().endpointOf(table));
    // The columns the stream's rules hid before stay hidden, whatever their names are now.
    DeltaTable deltaTable = tables.open(table, position.hidden());
    LatestSnapshot latest = deltaTable.latestSnapshot(); // one load for the whole open
    try {
      if (partition.shard() != null || position.handOver() != null) {
        deltaTable =
            deltaTable.shardedBy(
                partition.shard() == null ? TableShard.WHOLE : partition.shard(),
                handOverKeys(partition),
                latest,
                position.handOver());
      }
      TableIdentity identity = deltaTable.identity(latest);
      StoredOffset stored = position.stored();
      ChangePosition resumeAt = stored != null ? stored.position() : position.planned();
      ChangePosition start;
      StartKind kind;
      if (stored != null
          && stored.identity() != null
          && !deltaTable.holds(stored.identity(), latest)) {
        start = anotherTable(partition, deltaTable, latest, stored, identity);
        kind = StartKind.ANOTHER_TABLE;
      } else if (resumeAt != null) {
        start = resumePosition(partition, deltaTable, latest, resumeAt);
        if (stored == null) {
          kind = StartKind.CONFIGURED;
        } else if (start.equals(stored.position())) {
          kind = StartKind.RESUMED;
        } else {
          kind = StartKind.RESNAPSHOT;
        }
      } else {
        start = tables.start(deltaTable, latest);
        kind = StartKind.CONFIGURED;
        log.info(
            "Table {} has no stored offset; start.mode={} starts it at {}",
            table,
            config.getString(DeltaCdfSourceConfig.START_MODE),
            start);
      }
      long lastVersion =
          runEnd.lastVersion(
              partition.describe(), deltaTable, latest, start, kind == StartKind.RESUMED);
      RecordConverter converter =
          converters.checked(partition, deltaTable, start, latest, position.hidden());
      converter.offsetsBy(position::offsetOf);
      position.opened(identity, start, kind == StartKind.RESUMED);
      return new Opened(deltaTable, start, kind, converter, lastVersion);
    } catch (DeltaFeedException e) {
      deltaTable.close();
      throw e;
    } catch (IllegalArgumentException e) {
      deltaTable.close();
      throw redaction.toConnectException(e);
    } catch (RuntimeException e) {
      deltaTable.close();
      throw e;
    }
  }

  /**
   * The key columns that place the partition's rows; a whole table taking over from shards needs
   * them as much as a shard does.
   */
  private List<String> handOverKeys(TablePartition partition) {
    List<String> keys = config.keyColumnsFor(partition.table());
    if (keys.isEmpty()) {
      throw new ConnectException(
          "Table "
              + partition.describe()
              + " takes over from the offsets its shards stored under another table.shards, which"
              + " needs its key.columns to tell which shard sent each key's changes: configure"
              + " them as they were");
    }
    return keys;
  }

  /**
   * Where a table starts whose stored offset belongs to another table that had its path or name
   * (deleted and re-created, or dropped and re-created in its catalog): nowhere with
   * on.history.missing=fail, which fails naming both tables; else at start.mode, as a table without
   * an offset.
   */
  private ChangePosition anotherTable(
      TablePartition partition,
      DeltaTable deltaTable,
      LatestSnapshot latest,
      StoredOffset stored,
      TableIdentity identity) {
    String problem =
        "Table "
            + partition.describe()
            + ": the stored offset (at version "
            + stored.position().version()
            + ") belongs to the table with "
            + stored.identity().describe()
            + ", but the table there now has "
            + identity.describe()
            + ": it was deleted and created again (or dropped and re-created in its catalog),"
            + " and the old table's position means nothing in the new one";
    if (partition.slice() != null || !config.resnapshotOnMissingHistory()) {
      throw new ConnectException(
          problem
              + ". To stream the new table from start.mode, DELETE the connector's offsets (stop"
              + " it, then DELETE /connectors/<name>/offsets), or set"
              + " on.history.missing=resnapshot to let the connector start such a table over by"
              + " itself");
    }
    ChangePosition start = tables.start(deltaTable, latest);
    log.warn(
        "{}. on.history.missing=resnapshot: start.mode={} starts the new table at {}",
        problem,
        config.getString(DeltaCdfSourceConfig.START_MODE),
        start);
    return start;
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
    try {
      deltaTable.checkStored(stored, latest);
    } catch (DeltaFeedException e) {
      if (partition.slice() != null || !resnapshots.apply(e)) {
        throw e;
      }
      return resnapshots.startOver(partition.table(), deltaTable, latest, e);
    }
    log.info("Table {} resumes from {}", partition.describe(), stored);
    return stored;
  }
}
