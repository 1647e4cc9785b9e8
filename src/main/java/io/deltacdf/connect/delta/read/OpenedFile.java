package io.deltacdf.connect.delta.read;

import io.deltacdf.connect.delta.table.TableSchema;

/**
 * A file of the feed opened for reading, and what every row read from it shares.
 *
 * @param schema the schema its rows are read with
 * @param commitTimestamp the {@code _commit_timestamp} of its version (or snapshot)
 */
public record OpenedFile(FileRowCursor cursor, TableSchema schema, long commitTimestamp) {}
