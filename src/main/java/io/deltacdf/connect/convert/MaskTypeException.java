package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.FieldType;
import java.util.Locale;

/** A mask that names a column of a type it cannot mask, or a field inside an array or a map. */
public final class MaskTypeException extends IllegalArgumentException {

  private final ColumnMasks.Kind kind;

  MaskTypeException(
      ColumnMasks.Kind kind, String table, String column, FieldType type, String masks) {
    super(
        "Column '"
            + column
            + "' of table "
            + table
            + " is of type "
            + typeName(type)
            + ", which the "
            + kind.name().toLowerCase(Locale.ROOT)
            + " mask cannot mask: it masks "
            + masks
            + "; name other columns, or drop this one with column.exclude.list or the null mask");
    this.kind = kind;
  }

  /** A mask that names what masks cannot reach, as {@code message} says. */
  MaskTypeException(ColumnMasks.Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  private static String typeName(FieldType type) {
    return (type instanceof FieldType.Primitive primitive
            ? primitive.kind().name()
            : type.getClass().getSimpleName())
        .toLowerCase(Locale.ROOT);
  }

  /** The mask at fault, whose setting the message belongs to. */
  public ColumnMasks.Kind kind() {
    return kind;
  }
}
