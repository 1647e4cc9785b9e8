package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangeRow;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** Rows as Connect structs with schemas, for any converter. */
final class StructShape implements RowShape {

  private final SchemaMapping schemas;
  private final Schema envelope;

  /**
   * @param envelope the envelope schema around the mapping's row schema; null in row format
   */
  StructShape(SchemaMapping schemas, Schema envelope) {
    this.schemas = schemas;
    this.envelope = envelope;
  }

  @Override
  public Schema keySchema() {
    return schemas.keySchema();
  }

  @Override
  public Schema rowSchema() {
    return schemas.rowSchema();
  }

  @Override
  public Schema envelopeSchema() {
    return envelope;
  }

  @Override
  public Object row(ChangeRow change) {
    return schemas.row(change);
  }

  @Override
  public Object key(ChangeRow change, Object row) {
    return schemas.key((Struct) row);
  }

  @Override
  public Object envelope(
      EnvelopeOp op, Object before, Object after, EnvelopeSchema.Source source, long tsMs) {
    return new Struct(envelope)
        .put(EnvelopeSchema.BEFORE, before)
        .put(EnvelopeSchema.AFTER, after)
        .put(EnvelopeSchema.SOURCE, EnvelopeSchema.source(source))
        .put(EnvelopeSchema.OP, op.code())
        .put(EnvelopeSchema.TS_MS, tsMs);
  }
}
