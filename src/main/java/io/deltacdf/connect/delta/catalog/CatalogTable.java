package io.deltacdf.connect.delta.catalog;

/**
 * A Delta table as Unity Catalog knows it.
 *
 * @param fullName {@code catalog.schema.table}
 * @param tableId the catalog's id of the table, which credentials are vended for
 * @param location the URI of the table's root folder
 */
public record CatalogTable(String fullName, String tableId, String location) {}
