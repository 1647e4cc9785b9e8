package io.deltacdf.connect.delta.table;

import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.engine.Engine;
import io.deltacdf.connect.delta.catalog.CatalogCommits;
import java.util.Optional;

/**
 * What every reader of one table shares.
 *
 * @param table the table as the user named it, for messages
 * @param tableRoot the fully qualified table root that relative log paths resolve against
 * @param filesOutsideTableAllowed whether log entries may point outside the table root
 * @param files the engine's file access, for what Kernel does not read itself (Parquet footers)
 * @param catalogCommits for a table opened through its catalog: the commits the catalog ratified,
 *     which a catalog-managed table has before they reach {@code _delta_log}
 * @param catalogTableId for a table opened through its catalog: the catalog's id of the table
 */
public record FeedContext(
    Engine engine,
    String table,
    String tableRoot,
    boolean filesOutsideTableAllowed,
    FileIO files,
    Optional<CatalogCommits> catalogCommits,
    Optional<String> catalogTableId) {

  /** A table read by path alone. */
  public FeedContext(
      Engine engine,
      String table,
      String tableRoot,
      boolean filesOutsideTableAllowed,
      FileIO files) {
    this(
        engine,
        table,
        tableRoot,
        filesOutsideTableAllowed,
        files,
        Optional.empty(),
        Optional.empty());
  }
}
