package io.deltacdf.connect.stream;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;

/**
 * The tables as the settings configure them: read through the configured storage and change source,
 * and started where start.mode says when they have no stored offset.
 */
final class ConfiguredTables {

  private final DeltaCdfSourceConfig config;
  private final Redaction redaction;

  ConfiguredTables(DeltaCdfSourceConfig config, Redaction redaction) {
    this.config = config;
    this.redaction = redaction;
  }

  /** Opens {@code table}; the caller closes it. */
  DeltaTable open(String table) {
    return DeltaTable.open(table, config.hadoopSettings(), config.filesOutsideTableAllowed())
        .withChangeSource(config.changeSource(), config.keyColumnsFor(table))
        .withColumns(config.columnsFor(table))
        .withRowFilter(config.rowFilter())
        .withDiffMemoryRows(config.derivedDiffMemoryRows());
  }

  /** Where the configured start starts a table without offset, as of its {@code latest}. */
  ChangePosition start(DeltaTable table, LatestSnapshot latest) {
    return table.resolveStart(config.start(), latest);
  }

  /** Where the configured start starts {@code table} now; opens the table for that. */
  ChangePosition start(String table) {
    try (DeltaTable deltaTable = open(table)) {
      return start(deltaTable, deltaTable.latestSnapshot());
    } catch (DeltaFeedException e) {
      throw redaction.toConnectException(e);
    }
  }

  /**
   * Whether {@code table} was found below a root (not named in delta.table.paths) and its folder no
   * longer holds a table: its stream stops until the next rescan drops it.
   */
  boolean discoveredAndGone(String table) {
    if (config.tablePaths().contains(table) || !config.isConfiguredTable(table)) {
      return false;
    }
    try (DeltaTable deltaTable = open(table)) {
      deltaTable.latestSnapshot().version();
      return false;
    } catch (DeltaFeedException e) {
      return e.kind() == DeltaFeedException.Kind.TABLE_NOT_FOUND;
    }
  }
}
