package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.types.StructType;
import java.util.Map;
import java.util.Set;

/** A table's metadata action: its id, schema, partitioning and table properties. */
public final class TableMetadata {

  private final Metadata metadata;

  TableMetadata(Metadata metadata) {
    this.metadata = metadata;
  }

  /** The metadata in force at {@code snapshot}'s version. */
  public static TableMetadata of(Snapshot snapshot) {
    return new TableMetadata(snapshot.getMetadata());
  }

  /** Stays the same for the table's life; CREATE OR REPLACE TABLE gives it a new one. */
  public String id() {
    return metadata.getId();
  }

  /** The columns by logical name. */
  public StructType schema() {
    return metadata.getSchema();
  }

  /** The columns by the names data files use (they differ under column mapping). */
  public StructType physicalSchema() {
    return metadata.getPhysicalSchema();
  }

  public Set<String> partitionColumns() {
    return metadata.getPartitionColNames();
  }

  public Map<String, String> configuration() {
    return metadata.getConfiguration();
  }
}
