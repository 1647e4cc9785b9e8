package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HiddenColumnsTracker;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.UnityCatalogConnection;
import io.deltacdf.connect.delta.CatalogTables;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;

/**
 * The tables as the settings configure them: read through the configured storage and change source,
 * and started where start.mode says when they have no stored offset.
 */
public final class ConfiguredTables {

  private final DeltaCdfSourceConfig config;
  private final Redaction redaction;
  private CatalogTables catalog;

  public ConfiguredTables(DeltaCdfSourceConfig config, Redaction redaction) {
    this.config = config;
    this.redaction = redaction;
  }

  /**
   * Opens {@code table}, a path, or a name of unity.catalog.tables (opened where the catalog says,
   * with the credentials it vends); the caller closes it.
   */
  public DeltaTable open(String table) {
    return open(table, HiddenColumnsTracker.empty());
  }

  /**
   * As {@link #open(String)}, its column selection sharing {@code hidden}: a column left out before
   * stays out under a new name.
   */
  DeltaTable open(String table, HiddenColumnsTracker hidden) {
    DeltaTable opened =
        config.isCatalogTable(table)
            ? catalog()
                .open(
                    table,
                    config.stores().catalogTableHadoopSettings(),
                    config.stores().catalogTableHadoopOverrides(),
                    config.filesOutsideTableAllowed())
            : DeltaTable.open(
                table, config.stores().hadoopSettings(), config.filesOutsideTableAllowed());
    return opened
        .withChangeSource(config.changeSource(), config.keyColumnsFor(table))
        .withColumns(config.columnsFor(table).following(hidden))
        .withRowFilter(config.rowFilter())
        .withDiffMemoryRows(config.derivedDiffMemoryRows());
  }

  /** The catalog of unity.catalog.tables, connected once per instance. */
  private CatalogTables catalog() {
    if (catalog == null) {
      UnityCatalogConnection connection = config.unityCatalog();
      catalog =
          connection.usesToken()
              ? CatalogTables.withToken(
                  connection.uri(),
                  connection.token(),
                  config.stores().catalogTableHadoopSettings())
              : CatalogTables.withServicePrincipal(
                  connection.uri(),
                  connection.clientId(),
                  connection.clientSecret(),
                  connection.oauthTokenUri(),
                  connection.oauthScope(),
                  config.stores().catalogTableHadoopSettings());
    }
    return catalog;
  }

  /** Where the configured start starts a table without offset, as of its {@code latest}. */
  public ChangePosition start(DeltaTable table, LatestSnapshot latest) {
    return table.resolveStart(config.start(), latest);
  }

  /** Where the configured start starts {@code table} now; opens the table for that. */
  public ChangePosition start(String table) {
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
    if (config.namedTables().contains(table) || !config.isConfiguredTable(table)) {
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
