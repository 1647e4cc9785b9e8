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
    if (patterns.isEmpty()) {
      return false;
    }
    String name = table + ":" + String.join(".", path);
    for (Pattern pattern : patterns) {
      if (pattern.matcher(name).matches()) {
        return true;
      }
    }
    return false;
  }
}
