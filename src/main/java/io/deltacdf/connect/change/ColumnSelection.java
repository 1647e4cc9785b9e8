package io.deltacdf.connect.change;

import java.util.List;

/**
 * Which columns of a table its records carry, and so which are read from the data files: those an
 * include list names, or all but those an exclude list names (at most one of the two is set).
 * Naming a struct column keeps or drops it whole; naming a nested field keeps or drops only that
 * field, and a struct left with no field is dropped.
 *
 * <p>A column dropped once stays dropped: each one dropped is recorded by identity in {@code
 * hidden}, so it stays out under every later name (a rename under column mapping), whether an
 * exclude list named it or an include list did not.
 *
 * @param hidden the table stream's hidden columns, shared with its masks
 */
public record ColumnSelection(
    ColumnPatterns include, ColumnPatterns exclude, HiddenColumnsTracker hidden) {

  /** What happens to one field. */
  public enum Verdict {
    KEEP,
    DROP,
    /** A struct kept with only those of its fields that are kept; dropped if none is. */
    DESCEND
  }

  /** Every column. */
  public static final ColumnSelection ALL =
      new ColumnSelection(new ColumnPatterns("", List.of()), new ColumnPatterns("", List.of()));

  /** A selection that learns into a tracker of its own. */
  public ColumnSelection(ColumnPatterns include, ColumnPatterns exclude) {
    this(include, exclude, HiddenColumnsTracker.empty());
  }

  /** The same rules, sharing {@code tracker} (seeded with what a stream hid before). */
  public ColumnSelection following(HiddenColumnsTracker tracker) {
    return new ColumnSelection(include, exclude, tracker);
  }

  /** Whether every column is kept: no rule, and no column left out before. */
  public boolean keepsAll() {
    return include.isEmpty()
        && exclude.isEmpty()
        && !hidden.current().rules().containsValue(HiddenColumns.Rule.EXCLUDED);
  }

  /**
   * @param path the field's name, after the names of the structs it is nested in
   * @param identity the field's identity ({@link HiddenColumns}), aligned with {@code path}
   * @param struct whether the field is a struct (other types are kept or dropped whole)
   */
  public Verdict verdict(List<String> path, List<String> identity, boolean struct) {
    Verdict byName = verdict(path, struct);
    if (byName == Verdict.DROP) {
      hidden.hide(identity, HiddenColumns.Rule.EXCLUDED);
      return byName;
    }
    return hidden.current().excludes(identity) ? Verdict.DROP : byName;
  }

  private Verdict verdict(List<String> path, boolean struct) {
    if (!include.isEmpty()) {
      if (include.matches(path)) {
        return Verdict.KEEP;
      }
      return struct ? Verdict.DESCEND : Verdict.DROP;
    }
    if (exclude.matches(path)) {
      return Verdict.DROP;
    }
    return struct ? Verdict.DESCEND : Verdict.KEEP;
  }

  /**
   * Refuses an include or exclude rule that names a field inside the array or map at {@code path}:
   * rules do not reach there, so such a field would be carried.
   *
   * @throws ColumnRuleReachException naming the setting, the pattern and the field
   */
  public void requireNothingInside(List<String> path, FieldType type) {
    exclude.requireNothingInside("column.exclude.list", path, type);
    include.requireNothingInside("column.include.list", path, type);
  }

  /** Whether the top-level column {@code column}, not a struct, is kept (key columns must be). */
  public boolean keeps(String column) {
    return verdict(List.of(column), false) == Verdict.KEEP;
  }
}
