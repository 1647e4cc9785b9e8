package io.deltacdf.connect.config;

import java.util.List;

/** The names of a table used in topic names and per-table settings. */
public final class TableNames {

  private TableNames() {}

  /**
   * {@code tableUri}'s path below the first of {@code roots} it lies under ({@code sales/orders});
   * its last segment when it lies under none; a Unity Catalog name's parts as folders ({@code
   * main/sales/orders}, so its schema is {@code sales}).
   */
  public static String relativePath(String tableUri, List<String> roots) {
    if (UnityCatalogSettings.isFullName(tableUri.trim())) {
      return tableUri.trim().replace('.', '/');
    }
    String trimmed = tableUri.trim().replaceAll("/+$", "");
    for (String root : roots) {
      String prefix = root.replaceAll("/+$", "") + "/";
      if (trimmed.startsWith(prefix)) {
        return trimmed.substring(prefix.length());
      }
    }
    return nameOf(tableUri);
  }

  /**
   * The schema a table at {@code relativePath} belongs to: the folder it is in, without a Hive
   * warehouse's {@code .db} suffix ({@code sales.db/orders} → {@code sales}); in a Fabric lakehouse
   * without schemas ({@code Tables/orders}) its default schema {@code dbo}; empty at the root.
   */
  public static String schemaOf(String relativePath) {
    String[] segments = relativePath.split("/");
    if (segments.length < 2) {
      return "";
    }
    String parent = segments[segments.length - 2];
    if (parent.equals("Tables")) {
      return "dbo";
    }
    return parent.endsWith(".db") ? parent.substring(0, parent.length() - 3) : parent;
  }

  /** {@code name} with each character a topic name cannot hold replaced by '_'. */
  public static String topicSafe(String name) {
    return name.replaceAll("[^a-zA-Z0-9._-]", "_");
  }

  /**
   * The last segment of the table's path: {@code s3a://bucket/lake/orders/} → {@code orders}; the
   * table of a Unity Catalog name: {@code main.sales.orders} → {@code orders}.
   */
  public static String nameOf(String tableUri) {
    if (UnityCatalogSettings.isFullName(tableUri.trim())) {
      return tableUri.trim().substring(tableUri.trim().lastIndexOf('.') + 1);
    }
    String trimmed = tableUri.trim().replaceAll("/+$", "");
    int slash = trimmed.lastIndexOf('/');
    String last = slash >= 0 ? trimmed.substring(slash + 1) : trimmed;
    int colon = last.lastIndexOf(':');
    return colon >= 0 ? last.substring(colon + 1) : last;
  }
}
