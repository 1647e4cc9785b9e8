package io.deltacdf.connect.change;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A predicate on partition columns, in a small SQL subset: comparisons ({@code = != <> < <= > >=})
 * of a column with a literal, {@code [NOT] IN (...)}, {@code IS [NOT] NULL}, {@code AND}, {@code
 * OR}, {@code NOT} and parentheses. Literals are 'quoted strings' (also for dates and timestamps),
 * numbers, TRUE and FALSE. Evaluated with SQL's three-valued logic: a comparison with a null value
 * is unknown, and only rows for which the filter is true pass. A filter nests at most {@link
 * #MAX_NESTING} levels of NOT and parentheses and holds at most {@link #MAX_CONDITIONS} conditions,
 * so that neither the parser nor the evaluation can overflow the stack. The text becomes a filter
 * in {@code config.RowFilterParser}.
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
}
