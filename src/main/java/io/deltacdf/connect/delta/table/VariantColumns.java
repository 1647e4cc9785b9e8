package io.deltacdf.connect.delta.table;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import io.deltacdf.connect.delta.variant.VariantJson;

/**
 * Variant columns as Kernel's Parquet reader can return them. The reader has no variant type of its
 * own, so a variant is read as what it is in the file, a group of two binaries ({@code value} and
 * {@code metadata}), and decoded to JSON text here.
 */
final class VariantColumns {

  static final String VALUE = "value";
  static final String METADATA = "metadata";

  private static final StructType ENCODED =
      new StructType().add(VALUE, BinaryType.BINARY, true).add(METADATA, BinaryType.BINARY, true);

  private VariantColumns() {}

  /** The type to ask the Parquet reader for: {@code type} with each variant as its group. */
  static DataType readType(DataType type) {
    if (type instanceof VariantType) {
      return ENCODED;
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

  /**
   * The first column (dotted path) of {@code type} that is or holds a variant, or null for none.
   */
  static String firstVariant(DataType type, String path) {
    if (type instanceof VariantType) {
      return path;
    }
    if (type instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        String prefix = path.isEmpty() ? field.getName() : path + "." + field.getName();
        String found = firstVariant(field.getDataType(), prefix);
        if (found != null) {
          return found;
        }
      }
    }
    if (type instanceof ArrayType array) {
      return firstVariant(array.getElementType(), path + ".element");
    }
    if (type instanceof MapType map) {
      return firstVariant(map.getValueType(), path + ".value");
    }
    return null;
  }

  /** The JSON text of the variant at {@code row} of a vector read as {@link #readType}. */
  static String json(ColumnVector variant, int row) {
    ColumnVector value = variant.getChild(0);
    ColumnVector metadata = variant.getChild(1);
    if (value.isNullAt(row) || metadata.isNullAt(row)) {
      // Only a shredded variant (its value in typed columns) lacks the value bytes.
      throw new IllegalStateException(
          "A variant value is stored shredded (in typed columns), which this connector does not"
              + " read yet; see docs/limitations.md");
    }
    return VariantJson.toJson(value.getBinary(row), metadata.getBinary(row));
  }
}
