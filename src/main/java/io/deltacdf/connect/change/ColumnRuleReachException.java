package io.deltacdf.connect.change;

/**
 * An include or exclude pattern naming a field inside an array or a map, where rules do not reach.
 */
public final class ColumnRuleReachException extends IllegalArgumentException {

  private final String setting;

  ColumnRuleReachException(String setting, String message) {
    super(message);
    this.setting = setting;
  }

  /** The setting that holds the pattern. */
  public String setting() {
    return setting;
  }
}
