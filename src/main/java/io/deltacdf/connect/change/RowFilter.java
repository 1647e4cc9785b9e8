package io.deltacdf.connect.change;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A predicate on partition columns, in a small SQL subset: comparisons ({@code = != <> < <= > >=})
 * of a column with a literal, {@code [NOT] IN (...)}, {@code IS [NOT] NULL}, {@code AND}, {@code
 * OR}, {@code NOT} and parentheses. Literals are 'quoted strings' (also for dates and timestamps),
 * numbers, TRUE and FALSE. Evaluated with SQL's three-valued logic: a comparison with a null value
 * is unknown, and only rows for which the filter is true pass. A filter nests at most {@link
 * #MAX_NESTING} levels of NOT and parentheses and holds at most {@link #MAX_CONDITIONS} conditions,
 * so that neither the parser nor the evaluation can overflow the stack.
 */
public sealed interface RowFilter {

  /** The most levels of NOT and parentheses a filter may nest. */
  int MAX_NESTING = 100;

  /** The most conditions (comparisons, IN and IS NULL tests) a filter may hold. */
  int MAX_CONDITIONS = 1_000;

  /** The filter that passes every row. */
  RowFilter ALL = new All();

  record All() implements RowFilter {}

  record And(RowFilter left, RowFilter right) implements RowFilter {}

  record Or(RowFilter left, RowFilter right) implements RowFilter {}

  record Not(RowFilter operand) implements RowFilter {}

  record Compare(String column, Op op, Literal literal) implements RowFilter {}

  record In(String column, List<Literal> literals) implements RowFilter {
    public In {
      literals = List.copyOf(literals);
    }
  }

  record IsNull(String column) implements RowFilter {}

  enum Op {
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE
  }

  /** A literal as written: its kind decides which column types it may be compared with. */
  record Literal(Kind kind, String text) {
    public enum Kind {
      STRING,
      NUMBER,
      BOOLEAN
    }
  }

  /** The columns the filter names, as written, in order of first appearance. */
  default Set<String> columns() {
    Set<String> columns = new LinkedHashSet<>();
    collectColumns(this, columns);
    return columns;
  }

  private static void collectColumns(RowFilter filter, Set<String> out) {
    if (filter instanceof And and) {
      collectColumns(and.left(), out);
      collectColumns(and.right(), out);
    } else if (filter instanceof Or or) {
      collectColumns(or.left(), out);
      collectColumns(or.right(), out);
    } else if (filter instanceof Not not) {
      collectColumns(not.operand(), out);
    } else if (filter instanceof Compare compare) {
      out.add(compare.column());
    } else if (filter instanceof In in) {
      out.add(in.column());
    } else if (filter instanceof IsNull isNull) {
      out.add(isNull.column());
    }
  }

  /**
   * Parses {@code text}; blank text is {@link #ALL}.
   *
   * @throws IllegalArgumentException saying what was expected where
   */
  static RowFilter parse(String text) {
    if (text == null || text.isBlank()) {
      return ALL;
    }
    Parser parser = new Parser(text);
    RowFilter filter = parser.or();
    parser.expectEnd();
    return filter;
  }

  /** A recursive-descent parser over the filter's tokens. */
  final class Parser {
    private final String text;
    private final List<String> tokens = new ArrayList<>();
    private final List<Integer> offsets = new ArrayList<>();
    private int next;
    private int nesting;
    private int conditions;

    private Parser(String text) {
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
      if (++nesting > MAX_NESTING) {
        throw new IllegalArgumentException(
            "The filter nests more than "
                + MAX_NESTING
                + " levels of NOT and parentheses (at character "
                + (offsets.get(next - 1) + 1)
                + "): write it with fewer");
      }
    }

    private RowFilter predicate() {
      if (++conditions > MAX_CONDITIONS) {
        throw new IllegalArgumentException(
            "The filter holds more than "
                + MAX_CONDITIONS
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
}
