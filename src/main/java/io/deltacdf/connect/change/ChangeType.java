package io.deltacdf.connect.change;

import java.util.List;

/** The kind of change a row records, named exactly as Delta's {@code _change_type} column. */
public enum ChangeType {
  INSERT("insert"),
  UPDATE_PREIMAGE("update_preimage"),
  UPDATE_POSTIMAGE("update_postimage"),
  DELETE("delete"),
  /**
   * A {@code _change_type} value other than the four Delta writes, as some writers put there: the
   * row carries the value itself (see {@link ChangeRow#label()}).
   */
  CUSTOM(null);

  /** The column of Delta's change files (and our header and metadata field) that names the type. */
  public static final String COLUMN = "_change_type";

  /** The types Delta itself writes. */
  public static final List<ChangeType> STANDARD =
      List.of(INSERT, UPDATE_PREIMAGE, UPDATE_POSTIMAGE, DELETE);

  private final String label;

  ChangeType(String label) {
    this.label = label;
  }

  /** The value Delta writes in {@code _change_type}; null for {@link #CUSTOM}. */
  public String label() {
    return label;
  }

  /** The standard type named {@code label}. */
  public static ChangeType fromLabel(String label) {
    for (ChangeType type : STANDARD) {
      if (type.label.equals(label)) {
        return type;
      }
    }
    throw new IllegalArgumentException("Unknown _change_type '" + label + "'");
  }

  /** The type of a {@code _change_type} value read from a change file: any value is one. */
  public static ChangeType ofValue(String value) {
    if (value == null) {
      throw new IllegalArgumentException("A change row has no _change_type");
    }
    for (ChangeType type : STANDARD) {
      if (type.label.equals(value)) {
        return type;
      }
    }
    return CUSTOM;
  }
}
