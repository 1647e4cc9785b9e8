package io.deltacdf.connect.delta.table;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.nio.charset.StandardCharsets;

/**
 * String columns are asked of Kernel's Parquet reader as the UTF-8 bytes they are stored as, and
 * decoded here. Kernel's reader returns the same bytes for either type, but its {@code getString}
 * decodes them through a {@code CharBuffer}; {@code new String(bytes, UTF_8)} decodes them with one
 * copy, and replaces malformed input with U+FFFD exactly as Kernel's decoding does.
 */
final class Utf8Columns {

  private Utf8Columns() {}

  /**
   * {@code type} with every string in it, nested ones too, read as binary. Variants are left as
   * they are: their read type is the file's, and their shredded strings are decoded with them.
   */
  static DataType readType(DataType type) {
    if (type instanceof StringType) {
      return BinaryType.BINARY;
    }
    if (type instanceof StructType struct) {
      StructType result = new StructType();
      for (StructField field : struct.fields()) {
        result = result.add(field.withDataType(readType(field.getDataType())));
      }
      return result;
    }
    if (type instanceof ArrayType array) {
      return new ArrayType(readType(array.getElementType()), array.containsNull());
    }
    if (type instanceof MapType map) {
      return new MapType(
          readType(map.getKeyType()), readType(map.getValueType()), map.isValueContainsNull());
    }
    return type;
  }

  /** The string at {@code row} of a column {@link #readType} made binary. */
  static String read(ColumnVector vector, int row) {
    return new String(vector.getBinary(row), StandardCharsets.UTF_8);
  }
}
