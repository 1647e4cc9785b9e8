package io.deltacdf.connect.change;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Column rules of one table: regular expressions, each matched whole and ignoring case against
 * {@code table:column}, a nested field named by its dotted path ({@code orders:address.city}), as
 * Debezium's column lists match {@code schema.table.column}.
 *
 * @param table the table's short name, the last segment of its path
 */
public record ColumnPatterns(String table, List<Pattern> patterns) {

  public ColumnPatterns {
    patterns = List.copyOf(patterns);
  }

  /** Compiles {@code expressions} as the column settings read them. */
  public static ColumnPatterns of(String table, List<String> expressions) {
    return new ColumnPatterns(table, expressions.stream().map(ColumnPatterns::compile).toList());
  }

  /** One expression as the column settings read it: whole-match, case-insensitive. */
  public static Pattern compile(String expression) {
    return Pattern.compile(expression.trim(), Pattern.CASE_INSENSITIVE);
  }

  public boolean isEmpty() {
    return patterns.isEmpty();
  }

  /** Whether a rule names the field at {@code path} (top-level column first). */
  public boolean matches(List<String> path) {
    return matching(path) != null;
  }

  /** The first rule that names the field at {@code path}, as written; null if none does. */
  public String matching(List<String> path) {
    if (patterns.isEmpty()) {
      return null;
    }
    String name = table + ":" + String.join(".", path);
    for (Pattern pattern : patterns) {
      if (pattern.matcher(name).matches()) {
        return pattern.pattern();
      }
    }
    return null;
  }

  /**
   * A rule that names a field inside the array or map at {@code path}, which rules do not reach,
   * and that field: null if none does.
   */
  public Reach reachingInside(List<String> path, FieldType type) {
    for (List<String> inner : CollectionFields.inside(path, type)) {
      String pattern = matching(inner);
      if (pattern != null) {
        return new Reach(pattern, String.join(".", inner), String.join(".", path));
      }
    }
    return null;
  }

  /**
   * Refuses a rule of {@code setting} that names a field inside the array or map at {@code path}.
   *
   * @throws ColumnRuleReachException naming the setting, the pattern and the field
   */
  public void requireNothingInside(String setting, List<String> path, FieldType type) {
    Reach reach = reachingInside(path, type);
    if (reach != null) {
      throw new ColumnRuleReachException(setting, reach.refusal(setting, table));
    }
  }

  /** A rule naming {@code field} inside the array or map {@code collection}. */
  public record Reach(String pattern, String field, String collection) {

    /** Why the rule of {@code setting} is refused, and what to write instead. */
    public String refusal(String setting, String table) {
      return setting
          + ": pattern '"
          + pattern
          + "' names "
          + field
          + ", inside the array or map column "
          + collection
          + " of table "
          + table
          + ". Column rules do not reach into arrays and maps: name the whole column "
          + table
          + ":"
          + collection
          + " (with column.exclude.list or column.mask.null.list)";
    }
  }
}
