package io.deltacdf.connect.convert;

/**
 * Connect schema names: {@code io.deltacdf.<table>.Value}, {@code .Key} and {@code .Envelope},
 * nested structs named after their column. They depend only on the table's name and columns, so a
 * schema registry sees the same name for a topic across restarts, and are valid Avro names whatever
 * the column names are.
 */
final class SchemaNames {

  static final String SOURCE = "io.deltacdf.connect.Source";

  private SchemaNames() {}

  static String base(String tableName) {
    return "io.deltacdf." + segment(tableName);
  }

  /**
   * {@code name} with every character Avro does not accept in a name replaced by '_'. Close to
   * {@link FieldNameAdjustment#AVRO} but not the same (one '_' per code point, not per UTF-16 char;
   * a leading digit checked after cleaning): merging them would rename the schemas or the fields of
   * existing topics whose names hold such characters.
   */
  static String segment(String name) {
    String cleaned = name.replaceAll("[^A-Za-z0-9_]", "_");
    return cleaned.isEmpty() || Character.isDigit(cleaned.charAt(0)) ? "_" + cleaned : cleaned;
  }
}
