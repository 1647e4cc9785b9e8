package io.deltacdf.connect.testing;

import static io.deltacdf.connect.testing.SparkHarness.sql;

import java.nio.file.Path;

/** Empty Delta tables with change data feed, created by Spark, as most tests start from. */
public final class CdfTables {

  /** The columns of most tests' tables: a key and one value. */
  public static final String ID_AND_NAME = "id BIGINT, name STRING";

  private CdfTables() {}

  /**
   * Creates a table at {@code path} (any URI Spark's file systems know) with {@code columns} and
   * change data feed on; each pair of {@code properties} is one more table property and its value.
   * Returns the path.
   */
  public static String create(String path, String columns, String... properties) {
    if (properties.length % 2 != 0) {
      throw new IllegalArgumentException("Table properties come in key and value pairs");
    }
    StringBuilder tableProperties = new StringBuilder("'delta.enableChangeDataFeed'='true'");
    for (int i = 0; i < properties.length; i += 2) {
      tableProperties.append(", '").append(properties[i]).append("'='");
      tableProperties.append(properties[i + 1]).append('\'');
    }
    sql(
        "CREATE TABLE delta.`%s` (%s) USING delta TBLPROPERTIES (%s)",
        path, columns, tableProperties);
    return path;
  }

  /** {@link #create} with {@link #ID_AND_NAME}. */
  public static String keyed(String path, String... properties) {
    return create(path, ID_AND_NAME, properties);
  }

  /** {@link #create} with {@link #ID_AND_NAME} in a local folder. */
  public static String keyed(Path folder, String... properties) {
    return keyed(folder.toString(), properties);
  }
}
