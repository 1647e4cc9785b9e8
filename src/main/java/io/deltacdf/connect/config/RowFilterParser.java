package io.deltacdf.connect.config;

import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.change.RowFilter.And;
import io.deltacdf.connect.change.RowFilter.Compare;
import io.deltacdf.connect.change.RowFilter.In;
import io.deltacdf.connect.change.RowFilter.IsNull;
import io.deltacdf.connect.change.RowFilter.Literal;
import io.deltacdf.connect.change.RowFilter.Not;
import io.deltacdf.connect.change.RowFilter.Op;
import io.deltacdf.connect.change.RowFilter.Or;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses row.filter's text into a {@link RowFilter}: a recursive-descent parser over its tokens.
 */
public final class RowFilterParser {
  private final String text;
  private final List<String> tokens = new ArrayList<>();
  private final List<Integer> offsets = new ArrayList<>();
  private int next;
  private int nesting;
  private int conditions;

  /**
   * Parses {@code text}; blank text is {@link RowFilter#ALL}.
   *
   * @throws IllegalArgumentException saying what was expected where
   */
  public static RowFilter parse(String text) {
    if (text == null || text.isBlank()) {
      return RowFilter.ALL;
    }
    RowFilterParser parser = new RowFilterParser(text);
    RowFilter filter = parser.or();
    parser.expectEnd();
    return filter;
  }

  private RowFilterParser(String text) {
    this.text = text;
    tokenize();
  }

  RowFilter or() {
    RowFilter left = and();
    while (keyword("OR")) {
      left = new Or(left, and());
    }
    return left;
  }

  private RowFilter and() {
    RowFilter left = not();
    while (keyword("AND")) {
      left = new And(left, not());
    }
    return left;
  }

  private RowFilter not() {
    if (keyword("NOT")) {
      nest();
      RowFilter operand = not();
      nesting--;
      return new Not(operand);
    }
    if (symbol("(")) {
      nest();
      RowFilter inner = or();
      expectSymbol(")");
      nesting--;
      return inner;
    }
    return predicate();
  }

  private void nest() {
    if (++nesting > RowFilter.MAX_NESTING) {
      throw new IllegalArgumentException(
          "The filter nests more than "
              + RowFilter.MAX_NESTING
              + " levels of NOT and parentheses (at character "
              + (offsets.get(next - 1) + 1)
              + "): write it with fewer");
    }
  }

  private RowFilter predicate() {
    if (++conditions > RowFilter.MAX_CONDITIONS) {
      throw new IllegalArgumentException(
          "The filter holds more than "
              + RowFilter.MAX_CONDITIONS
              + " conditions: use IN (...) for a list of values, or fewer conditions");
    }
    String column = column();
    if (keyword("IS")) {
      boolean negated = keyword("NOT");
      expectKeyword("NULL");
      return negated ? new Not(new IsNull(column)) : new IsNull(column);
    }
    boolean negated = keyword("NOT");
    if (keyword("IN")) {
      expectSymbol("(");
      List<Literal> literals = new ArrayList<>();
      do {
        literals.add(literal());
      } while (symbol(","));
      expectSymbol(")");
      return negated ? new Not(new In(column, literals)) : new In(column, literals);
    }
    if (negated) {
      throw error("IN after NOT");
    }
    for (String symbol : List.of("<=", ">=", "!=", "<>", "=", "<", ">")) {
      if (symbol(symbol)) {
        Op op =
            switch (symbol) {
              case "<=" -> Op.LE;
              case ">=" -> Op.GE;
              case "!=", "<>" -> Op.NE;
              case "=" -> Op.EQ;
              case "<" -> Op.LT;
              default -> Op.GT;
            };
        return new Compare(column, op, literal());
      }
    }
    throw error("a comparison (=, !=, <, <=, >, >=), IN or IS [NOT] NULL after " + column);
  }

  private String column() {
    String token = peek();
    if (token == null) {
      throw error("a partition column");
    }
    if (token.startsWith("`")) {
      next++;
      return token.substring(1, token.length() - 1).replace("``", "`");
    }
    if (!Character.isLetter(token.charAt(0)) && token.charAt(0) != '_' || isKeyword(token)) {
      throw error("a partition column");
    }
    next++;
    return token;
  }

  private Literal literal() {
    String token = peek();
    if (token == null) {
      throw error("a literal ('text', a number, TRUE or FALSE)");
    }
    if (token.startsWith("'")) {
      next++;
      return new Literal(
          Literal.Kind.STRING, token.substring(1, token.length() - 1).replace("''", "'"));
    }
    if (token.equalsIgnoreCase("TRUE") || token.equalsIgnoreCase("FALSE")) {
      next++;
      return new Literal(Literal.Kind.BOOLEAN, token.toLowerCase(Locale.ROOT));
    }
    if (token.matches("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?")) {
      next++;
      return new Literal(Literal.Kind.NUMBER, token);
    }
    throw error("a literal ('text', a number, TRUE or FALSE)");
  }

  void expectEnd() {
    if (peek() != null) {
      throw error("AND, OR or the end of the filter");
    }
  }

  private boolean keyword(String keyword) {
    String token = peek();
    if (token != null && token.equalsIgnoreCase(keyword)) {
      next++;
      return true;
    }
    return false;
  }

  private void expectKeyword(String keyword) {
    if (!keyword(keyword)) {
      throw error(keyword);
    }
  }

  private boolean symbol(String symbol) {
    if (symbol.equals(peek())) {
      next++;
      return true;
    }
    return false;
  }

  private void expectSymbol(String symbol) {
    if (!symbol(symbol)) {
      throw error("'" + symbol + "'");
    }
  }

  private String peek() {
    return next < tokens.size() ? tokens.get(next) : null;
  }

  private static boolean isKeyword(String token) {
    return List.of("AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE")
        .contains(token.toUpperCase(Locale.ROOT));
  }

  private IllegalArgumentException error(String expected) {
    String found =
        next < tokens.size()
            ? "'" + tokens.get(next) + "' at character " + (offsets.get(next) + 1)
            : "the end of the filter";
    return new IllegalArgumentException("Expected " + expected + ", found " + found);
  }

  private void tokenize() {
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      int start = i;
      if (c == '\'' || c == '`') {
        i++;
        while (true) {
          if (i >= text.length()) {
            throw new IllegalArgumentException(
                "Unclosed " + c + " opened at character " + (start + 1));
          }
          if (text.charAt(i) == c) {
            if (i + 1 < text.length() && text.charAt(i + 1) == c) {
              i += 2; // a doubled quote stands for one
              continue;
            }
            i++;
            break;
          }
          i++;
        }
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-' || c == '+') {
        // a word or a number (a sign only where a number starts)
        i++;
        while (i < text.length()
            && (Character.isLetterOrDigit(text.charAt(i))
                || text.charAt(i) == '_'
                || text.charAt(i) == '.'
                || ((text.charAt(i) == '-' || text.charAt(i) == '+')
                    && (text.charAt(i - 1) == 'e' || text.charAt(i - 1) == 'E')
                    && Character.isDigit(text.charAt(start + (c == '-' || c == '+' ? 1 : 0)))))) {
          i++;
        }
      } else if ((c == '<' || c == '>' || c == '!')
          && i + 1 < text.length()
          && (text.charAt(i + 1) == '=' || (c == '<' && text.charAt(i + 1) == '>'))) {
        i += 2;
      } else if ("=<>(),".indexOf(c) >= 0) {
        i++;
      } else {
        throw new IllegalArgumentException("Unexpected '" + c + "' at character " + (i + 1));
      }
      tokens.add(text.substring(start, i));
      offsets.add(start);
    }
  }
}
