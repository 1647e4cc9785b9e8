package io.deltacdf.connect.config;

/** The short name of a table, used in topic names and per-table settings. */
public final class TableNames {

  private TableNames() {}

  /** The last segment of the table's path: {@code s3a://bucket/lake/orders/} → {@code orders}. */
  public static String nameOf(String tableUri) {
    String trimmed = tableUri.trim().replaceAll("/+$", "");
    int slash = trimmed.lastIndexOf('/');
    String last = slash >= 0 ? trimmed.substring(slash + 1) : trimmed;
    int colon = last.lastIndexOf(':');
    return colon >= 0 ? last.substring(colon + 1) : last;
  }
}
