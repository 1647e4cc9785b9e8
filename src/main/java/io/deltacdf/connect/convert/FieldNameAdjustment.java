package io.deltacdf.connect.convert;

/**
 * How column names become Connect field names. Column mapping lets Delta columns have any name
 * (spaces, dots, dashes, unicode), which Avro rejects.
 */
public enum FieldNameAdjustment {
  /** Field names are the column names. */
  NONE,
  /**
   * Every character outside {@code [A-Za-z0-9_]} becomes {@code _}, and a name starting with a
   * digit gets a leading {@code _}: what Avro accepts.
   */
  AVRO;

  public String adjust(String name) {
    if (this == NONE) {
      return name;
    }
    StringBuilder out = new StringBuilder(name.length() + 1);
    if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
      out.append('_');
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean valid =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      out.append(valid ? c : '_');
    }
    return out.toString();
  }
}
