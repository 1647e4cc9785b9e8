package io.deltacdf.connect.change;

import java.util.List;

/**
 * Which columns of a table its records carry, and so which are read from the data files: those an
 * include list names, or all but those an exclude list names (at most one of the two is set).
 * Naming a struct column keeps or drops it whole; naming a nested field keeps or drops only that
 * field, and a struct left with no field is dropped.
 */
public record ColumnSelection(ColumnPatterns include, ColumnPatterns exclude) {

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

  public boolean keepsAll() {
    return include.isEmpty() && exclude.isEmpty();
  }

  /**
   * @param path the field's name, after the names of the structs it is nested in
   * @param struct whether the field is a struct (other types are kept or dropped whole)
   */
  public Verdict verdict(List<String> path, boolean struct) {
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

  /** Whether the top-level column {@code column}, not a struct, is kept (key columns must be). */
  public boolean keeps(String column) {
    return verdict(List.of(column), false) == Verdict.KEEP;
  }
}
