package io.deltacdf.connect.delta.table;

import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.engine.Engine;

/**
 * What every reader of one table shares.
 *
 * @param table the table as the user named it, for messages
 * @param tableRoot the fully qualified table root that relative log paths resolve against
 * @param filesOutsideTableAllowed whether log entries may point outside the table root
 * @param files the engine's file access, for what Kernel does not read itself (Parquet footers)
 */
public record FeedContext(
    Engine engine,
    String table,
    String tableRoot,
    boolean filesOutsideTableAllowed,
    FileIO files) {}
