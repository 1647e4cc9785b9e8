package io.deltacdf.connect.delta.read;

import java.util.Locale;

/**
 * A float or double partition value, ordered as Spark SQL orders them: NaN equals NaN and is
 * greater than every other value, +Infinity included; 0.0 equals -0.0. Delta writes these values in
 * the log as Java prints them ({@code NaN}, {@code Infinity}, {@code -Infinity}).
 */
record SqlDouble(double value) implements Comparable<SqlDouble> {

  @Override
  public int compareTo(SqlDouble other) {
    // Double.compare orders NaN last and equal to itself, as Spark does, but puts -0.0 first.
    return value == other.value ? 0 : Double.compare(value, other.value);
  }

  /**
   * A literal compared with a float or double column, as Spark casts it: an integer to the column's
   * type (a float column compares it as a float), a decimal or exponent to a double, and quoted
   * text to the column's type as Spark casts a string ({@code 'NaN'}, {@code 'Infinity'}, {@code
   * '-Infinity'}, {@code 'inf'}, in any case).
   */
  static SqlDouble ofLiteral(String text, boolean quoted, boolean floatColumn) {
    if (quoted) {
      double value = parseText(text.trim());
      return new SqlDouble(floatColumn ? (float) value : value);
    }
    return new SqlDouble(Double.parseDouble(text));
  }

  private static double parseText(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "nan" -> Double.NaN;
      case "infinity", "+infinity", "inf", "+inf" -> Double.POSITIVE_INFINITY;
      case "-infinity", "-inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }
}
