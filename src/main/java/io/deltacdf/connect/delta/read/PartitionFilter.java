package io.deltacdf.connect.delta.read;

import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.table.TableSchema;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A {@link RowFilter} applied to a file's partition values, so that files of other partitions are
 * never opened. Every row of a file has the file's partition values, so keeping or skipping the
 * file keeps or skips exactly the rows the filter would: an UPDATE that moves a row to another
 * partition shows its pre-image (in the old partition's file) and not its post-image, as Spark's
 * {@code table_changes} with the same {@code WHERE} does.
 */
public final class PartitionFilter implements Predicate<Map<String, String>> {

  /** The filter's setting, as messages name it. */
  public static final String SETTING = "row.filter";

  private static final PartitionFilter ALL = new PartitionFilter(RowFilter.ALL, Map.of(), Map.of());

  private final RowFilter filter;
  private final Map<String, TableSchema.PartitionColumn> columns;

  /** Each literal of the filter as a value of its column's type, compared as such. */
  private final Map<RowFilter.Literal, Comparable<?>> literals;

  private PartitionFilter(
      RowFilter filter,
      Map<String, TableSchema.PartitionColumn> columns,
      Map<RowFilter.Literal, Comparable<?>> literals) {
    this.filter = filter;
    this.columns = columns;
    this.literals = literals;
  }

  /**
   * {@code filter} on the partition columns of {@code schema}.
   *
   * @throws DeltaFeedException when the filter names a column that is not a partition column, or
   *     compares one with a literal of another type
   */
  public static PartitionFilter of(RowFilter filter, TableSchema schema, String table) {
    if (filter instanceof RowFilter.All) {
      return ALL;
    }
    Map<String, TableSchema.PartitionColumn> columns = new HashMap<>();
    schema.partitionColumns().forEach(c -> columns.put(key(c.name()), c));
    for (String column : filter.columns()) {
      if (!columns.containsKey(key(column))) {
        throw misfit(
            table,
            "names '"
                + column
                + "', which is not a partition column of the table ("
                + (columns.isEmpty()
                    ? "it has none"
                    : "its partition columns: "
                        + schema.partitionColumns().stream()
                            .map(TableSchema.PartitionColumn::name)
                            .collect(Collectors.joining(", ")))
                + "); only partition columns can be filtered, so that files of other partitions"
                + " are never read");
      }
    }
    // By identity: the same text may stand for values of different types in two comparisons.
    Map<RowFilter.Literal, Comparable<?>> literals = new IdentityHashMap<>();
    coerceLiterals(filter, columns, literals, table);
    return new PartitionFilter(filter, columns, literals);
  }

  /** Whether the rows of a file with {@code partitionValues} (by physical name) pass. */
  @Override
  public boolean test(Map<String, String> partitionValues) {
    return filter instanceof RowFilter.All
        || Boolean.TRUE.equals(evaluate(filter, partitionValues));
  }

  /** True, false, or null for unknown (SQL's three-valued logic). */
  private Boolean evaluate(RowFilter node, Map<String, String> partitionValues) {
    if (node instanceof RowFilter.And and) {
      Boolean left = evaluate(and.left(), partitionValues);
      if (Boolean.FALSE.equals(left)) {
        return false;
      }
      Boolean right = evaluate(and.right(), partitionValues);
      if (Boolean.FALSE.equals(right)) {
        return false;
      }
      return left == null || right == null ? null : true;
    }
    if (node instanceof RowFilter.Or or) {
      Boolean left = evaluate(or.left(), partitionValues);
      if (Boolean.TRUE.equals(left)) {
        return true;
      }
      Boolean right = evaluate(or.right(), partitionValues);
      if (Boolean.TRUE.equals(right)) {
        return true;
      }
      return left == null || right == null ? null : false;
    }
    if (node instanceof RowFilter.Not not) {
      Boolean operand = evaluate(not.operand(), partitionValues);
      return operand == null ? null : !operand;
    }
    if (node instanceof RowFilter.IsNull isNull) {
      return value(isNull.column(), partitionValues) == null;
    }
    if (node instanceof RowFilter.Compare compare) {
      Comparable<?> value = value(compare.column(), partitionValues);
      if (value == null) {
        return null;
      }
      int order = compare(value, literals.get(compare.literal()));
      return switch (compare.op()) {
        case EQ -> order == 0;
        case NE -> order != 0;
        case LT -> order < 0;
        case LE -> order <= 0;
        case GT -> order > 0;
        case GE -> order >= 0;
      };
    }
    if (node instanceof RowFilter.In in) {
      Comparable<?> value = value(in.column(), partitionValues);
      if (value == null) {
        return null;
      }
      return in.literals().stream().anyMatch(l -> compare(value, literals.get(l)) == 0);
    }
    return true; // RowFilter.All
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Comparable value, Comparable literal) {
    return value.compareTo(literal);
  }

  private Comparable<?> value(String column, Map<String, String> partitionValues) {
    TableSchema.PartitionColumn partition = columns.get(key(column));
    Object value =
        PartitionValues.parse(partition.type(), partitionValues.get(partition.physicalName()));
    return value == null ? null : comparable(value);
  }

  /**
   * Floats and doubles compare as Spark compares them (NaN and infinities included); other numbers
   * as decimals, whatever their width; other values as they are.
   */
  private static Comparable<?> comparable(Object value) {
    if (value instanceof Float || value instanceof Double) {
      return new SqlDouble(((Number) value).doubleValue());
    }
    if (value instanceof Number number && !(value instanceof BigDecimal)) {
      return new BigDecimal(number.toString());
    }
    return (Comparable<?>) value;
  }

  private static void coerceLiterals(
      RowFilter node,
      Map<String, TableSchema.PartitionColumn> columns,
      Map<RowFilter.Literal, Comparable<?>> out,
      String table) {
    if (node instanceof RowFilter.And and) {
      coerceLiterals(and.left(), columns, out, table);
      coerceLiterals(and.right(), columns, out, table);
    } else if (node instanceof RowFilter.Or or) {
      coerceLiterals(or.left(), columns, out, table);
      coerceLiterals(or.right(), columns, out, table);
    } else if (node instanceof RowFilter.Not not) {
      coerceLiterals(not.operand(), columns, out, table);
    } else if (node instanceof RowFilter.Compare compare) {
      out.put(
          compare.literal(), coerce(compare.literal(), columns.get(key(compare.column())), table));
    } else if (node instanceof RowFilter.In in) {
      for (RowFilter.Literal literal : in.literals()) {
        out.put(literal, coerce(literal, columns.get(key(in.column())), table));
      }
    }
  }

  /** The literal as a value of the column's type, or a misfit naming both. */
  private static Comparable<?> coerce(
      RowFilter.Literal literal, TableSchema.PartitionColumn column, String table) {
    FieldType type = column.type();
    boolean numeric =
        type instanceof FieldType.Decimal
            || type instanceof FieldType.Primitive p
                && List.of(
                        FieldType.PrimitiveKind.BYTE,
                        FieldType.PrimitiveKind.SHORT,
                        FieldType.PrimitiveKind.INT,
                        FieldType.PrimitiveKind.LONG,
                        FieldType.PrimitiveKind.FLOAT,
                        FieldType.PrimitiveKind.DOUBLE)
                    .contains(p.kind());
    FieldType.PrimitiveKind kind =
        type instanceof FieldType.Primitive p ? p.kind() : FieldType.PrimitiveKind.DOUBLE;
    boolean floating =
        type instanceof FieldType.Primitive
            && (kind == FieldType.PrimitiveKind.FLOAT || kind == FieldType.PrimitiveKind.DOUBLE);
    try {
      if (floating && literal.kind() != RowFilter.Literal.Kind.BOOLEAN) {
        return SqlDouble.ofLiteral(
            literal.text(),
            literal.kind() == RowFilter.Literal.Kind.STRING,
            kind == FieldType.PrimitiveKind.FLOAT);
      }
      switch (literal.kind()) {
        case NUMBER -> {
          if (numeric) {
            return new BigDecimal(literal.text());
          }
        }
        case BOOLEAN -> {
          if (kind == FieldType.PrimitiveKind.BOOLEAN && !numeric) {
            return Boolean.parseBoolean(literal.text());
          }
        }
        case STRING -> {
          if (!numeric) {
            switch (kind) {
              case STRING:
                return literal.text();
              case DATE, TIMESTAMP, TIMESTAMP_NTZ:
                return (Comparable<?>) PartitionValues.parse(type, literal.text());
              default:
                break;
            }
          }
        }
      }
    } catch (RuntimeException e) {
      throw misfit(
          table,
          "compares column '"
              + column.name()
              + "' with "
              + quoted(literal)
              + ", which is not a valid "
              + typeName(type)
              + " ("
              + e.getMessage()
              + ")");
    }
    throw misfit(
        table,
        "compares column '"
            + column.name()
            + "' of type "
            + typeName(type)
            + " with "
            + quoted(literal)
            + ": write "
            + (numeric
                ? floating ? "a number, 'NaN', 'Infinity' or '-Infinity'" : "a number"
                : kind == FieldType.PrimitiveKind.BOOLEAN
                    ? "TRUE or FALSE"
                    : kind == FieldType.PrimitiveKind.STRING
                            || kind == FieldType.PrimitiveKind.DATE
                            || kind == FieldType.PrimitiveKind.TIMESTAMP
                            || kind == FieldType.PrimitiveKind.TIMESTAMP_NTZ
                        ? "a 'quoted' literal"
                        : "no literal: this type cannot be filtered"));
  }

  private static String quoted(RowFilter.Literal literal) {
    return literal.kind() == RowFilter.Literal.Kind.STRING
        ? "'" + literal.text() + "'"
        : literal.text();
  }

  private static String typeName(FieldType type) {
    return type instanceof FieldType.Primitive p
        ? p.kind().name().toLowerCase(Locale.ROOT)
        : type instanceof FieldType.Decimal d
            ? "decimal(" + d.precision() + "," + d.scale() + ")"
            : type.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  private static DeltaFeedException misfit(String table, String message) {
    return new DeltaFeedException(
        DeltaFeedException.Kind.ROW_FILTER_MISFIT,
        "The " + SETTING + " of table " + table + " " + message);
  }

  private static String key(String column) {
    return column.toLowerCase(Locale.ROOT);
  }
}
