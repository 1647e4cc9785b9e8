package io.deltacdf.connect.change;

import java.util.Objects;

/**
 * Which table a position belongs to, beyond its path or name: a table deleted and re-created at the
 * same path, or dropped and re-created under the same catalog name, is another table, and a
 * position of the old one means nothing in the new one.
 *
 * @param deltaTableId the Delta table id ({@code metaData.id}), set when the table is created
 * @param catalogTableId the catalog's id of the table for a table named in Unity Catalog, else null
 */
public record TableIdentity(String deltaTableId, String catalogTableId) {

  public TableIdentity {
    Objects.requireNonNull(deltaTableId, "deltaTableId");
  }

  /** How messages name it. */
  public String describe() {
    return catalogTableId == null
        ? "table id " + deltaTableId
        : "table id " + deltaTableId + " (catalog table id " + catalogTableId + ")";
  }
}
