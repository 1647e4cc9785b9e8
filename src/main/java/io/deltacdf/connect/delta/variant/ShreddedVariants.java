package io.deltacdf.connect.delta.variant;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON text of a shredded variant: what its {@code typed_value} columns hold, merged with what
 * is left in its {@code value} bytes, written as the whole variant would be. An object's fields
 * come from both places and are written in key order, as Spark writes a rebuilt variant.
 */
final class ShreddedVariants {

  private ShreddedVariants() {}

  static String json(ColumnVector value, ColumnVector typed, byte[] metadata, int row) {
    StringBuilder out = new StringBuilder();
    if (!append(value, typed, row, VariantMetadata.of(metadata), out)) {
      throw new MalformedVariantException("a shredded variant with neither value nor typed_value");
    }
    return out.toString();
  }

  /**
   * Appends the value a {@code value} / {@code typed_value} pair holds at {@code row} (either may
   * be null when the file has no such column); false when both are null (a missing object field).
   */
  private static boolean append(
      ColumnVector value,
      ColumnVector typed,
      int row,
      VariantMetadata metadata,
      StringBuilder out) {
    boolean hasValue = value != null && !value.isNullAt(row);
    if (typed == null || typed.isNullAt(row)) {
      if (hasValue) {
        VariantJson.append(value.getBinary(row), metadata, out);
      }
      return hasValue;
    }
    DataType type = typed.getDataType();
    if (type instanceof StructType) {
      appendObject(typed, row, hasValue ? value.getBinary(row) : null, metadata, out);
    } else if (type instanceof ArrayType) {
      appendArray(typed.getArray(row), metadata, out);
    } else {
      appendScalar(type, typed, row, out);
    }
    return true;
  }

  private static void appendObject(
      ColumnVector fields, int row, byte[] leftover, VariantMetadata metadata, StringBuilder out) {
    Map<String, String> byKey = new TreeMap<>();
    int textSize = out.length();
    StructType type = (StructType) fields.getDataType();
    for (int i = 0; i < type.length(); i++) {
      ColumnVector group = fields.getChild(i);
      StringBuilder field = new StringBuilder();
      if (append(valueOf(group), typedOf(group), row, metadata, field)) {
        byKey.put(type.at(i).getName(), field.toString());
        textSize += field.length();
        VariantJson.requireWithinLimit(textSize);
      }
    }
    if (leftover != null) {
      for (VariantJson.ObjectField field : VariantJson.objectFields(leftover, metadata)) {
        if (byKey.put(field.key(), field.json()) != null) {
          throw new MalformedVariantException("field '" + field.key() + "' is stored twice");
        }
      }
    }
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, String> field : byKey.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      VariantText.appendString(field.getKey(), out);
      out.append(':').append(field.getValue());
    }
    out.append('}');
  }

  private static void appendArray(ArrayValue array, VariantMetadata metadata, StringBuilder out) {
    ColumnVector elements = array.getElements();
    ColumnVector value = valueOf(elements);
    ColumnVector typed = typedOf(elements);
    out.append('[');
    for (int i = 0; i < array.getSize(); i++) {
      if (i > 0) {
        out.append(',');
      }
      if (!append(value, typed, i, metadata, out)) {
        throw new MalformedVariantException("an array element with neither value nor typed_value");
      }
      VariantJson.requireWithinLimit(out.length());
    }
    out.append(']');
  }

  private static void appendScalar(DataType type, ColumnVector v, int row, StringBuilder out) {
    if (type instanceof BooleanType) {
      out.append(v.getBoolean(row));
    } else if (type instanceof ByteType) {
      out.append(v.getByte(row));
    } else if (type instanceof ShortType) {
      out.append(v.getShort(row));
    } else if (type instanceof IntegerType) {
      out.append(v.getInt(row));
    } else if (type instanceof LongType) {
      out.append(v.getLong(row));
    } else if (type instanceof FloatType) {
      VariantText.appendFloat(v.getFloat(row), out);
    } else if (type instanceof DoubleType) {
      VariantText.appendDouble(v.getDouble(row), out);
    } else if (type instanceof DecimalType) {
      VariantText.appendDecimal(v.getDecimal(row), out);
    } else if (type instanceof DateType) {
      VariantText.appendDate(v.getInt(row), out);
    } else if (type instanceof TimestampType) {
      VariantText.appendTimestamp(v.getLong(row), out);
    } else if (type instanceof TimestampNTZType) {
      VariantText.appendLocalTimestamp(v.getLong(row), out);
    } else if (type instanceof StringType) {
      VariantText.appendString(v.getString(row), out);
    } else if (type instanceof BinaryType) {
      VariantText.appendBinary(v.getBinary(row), out);
    } else {
      throw new IllegalStateException("Shredded variant of unexpected type " + type);
    }
  }

  private static ColumnVector valueOf(ColumnVector group) {
    int index = ((StructType) group.getDataType()).indexOf(VariantColumns.VALUE);
    return index < 0 ? null : group.getChild(index);
  }

  private static ColumnVector typedOf(ColumnVector group) {
    int index = ((StructType) group.getDataType()).indexOf(ShreddedTypes.TYPED_VALUE);
    return index < 0 ? null : group.getChild(index);
  }
}
