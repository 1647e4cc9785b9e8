package io.deltacdf.connect.change;

/** The kind of change a row records, named exactly as Delta's {@code _change_type} column. */
public enum ChangeType {
  INSERT("insert"),
  UPDATE_PREIMAGE("update_preimage"),
  UPDATE_POSTIMAGE("update_postimage"),
  DELETE("delete");

  private final String label;

  ChangeType(String label) {
    this.label = label;
  }

  /** The value Delta writes in {@code _change_type}. */
  public String label() {
    return label;
  }

  public static ChangeType fromLabel(String label) {
    for (ChangeType type : values()) {
      if (type.label.equals(label)) {
        return type;
      }
    }
    throw new IllegalArgumentException("Unknown _change_type '" + label + "'");
  }
}
