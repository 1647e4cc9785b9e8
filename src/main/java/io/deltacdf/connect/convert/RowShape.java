package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import org.apache.kafka.connect.data.Schema;

/**
 * How the rows of one table schema become record keys and values: Connect structs ({@link
 * StructShape}) or JSON text ({@link JsonShape}). Built once per schema; the record logic
 * (filtering, tombstones, update pairing, snapshot marks) does not depend on the shape.
 */
interface RowShape {

  /** The key schema; null for a key-less table. */
  Schema keySchema();

  /** The value schema of record.format=row. */
  Schema rowSchema();

  /** The value schema of record.format=envelope. */
  Schema envelopeSchema();

  /** The row's value in record.format=row, or its image in an envelope. */
  Object row(ChangeRow change);

  /** The row's key, given its value from {@link #row}; null for a key-less table. */
  Object key(ChangeRow change, Object row);

  /** A Debezium change event; {@code before} and {@code after} are values from {@link #row}. */
  Object envelope(
      EnvelopeOp op, Object before, Object after, EnvelopeSchema.Source source, long tsMs);
}
