package io.deltacdf.connect.delta.variant;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Variant columns as Kernel's Parquet reader can return them. The reader has no variant type of its
 * own, so a variant is read as what it is in the file: a group of two binaries ({@code value} and
 * {@code metadata}) and, where the file shreds it, its {@code typed_value} columns; it is decoded
 * to JSON text here.
 */
public final class VariantColumns {

  static final String VALUE = "value";
  static final String METADATA = "metadata";

  private static final StructType ENCODED =
      new StructType().add(VALUE, BinaryType.BINARY, true).add(METADATA, BinaryType.BINARY, true);

  private VariantColumns() {}

  /**
   * The type to ask the Parquet reader for: {@code type} with each variant as its group, and with
   * the {@code typed_value} columns the file ({@code file}, null when unknown) shreds it into.
   */
  public static DataType readType(DataType type, Type file) {
    if (type instanceof VariantType) {
      GroupType group = file == null || file.isPrimitive() ? null : file.asGroupType();
      return group == null || !group.containsField(ShreddedTypes.TYPED_VALUE)
          ? ENCODED
          : ENCODED.add(
              ShreddedTypes.TYPED_VALUE,
              ShreddedTypes.typed(group.getType(ShreddedTypes.TYPED_VALUE)),
              true);
    }
    GroupType group = file == null || file.isPrimitive() ? null : file.asGroupType();
    if (type instanceof StructType struct) {
      StructType result = new StructType();
      for (StructField field : struct.fields()) {
        Type child =
            group != null && group.containsField(field.getName())
                ? group.getType(field.getName())
                : null;
        result = result.add(field.withDataType(readType(field.getDataType(), child)));
      }
      return result;
    }
    // Standard three-level lists and maps: <group> { repeated group <list|key_value> { ... } }.
    GroupType repeated =
        group != null && group.getFieldCount() == 1 && !group.getType(0).isPrimitive()
            ? group.getType(0).asGroupType()
            : null;
    if (type instanceof ArrayType array) {
      Type element = repeated != null && repeated.getFieldCount() == 1 ? repeated.getType(0) : null;
      return new ArrayType(readType(array.getElementType(), element), array.containsNull());
    }
    if (type instanceof MapType map) {
      Type value = repeated != null && repeated.getFieldCount() == 2 ? repeated.getType(1) : null;
      return new MapType(
          readType(map.getKeyType(), null),
          readType(map.getValueType(), value),
          map.isValueContainsNull());
    }
    return type;
  }

  /** Whether {@code type} is or holds a variant. */
  public static boolean holdsVariant(DataType type) {
    if (type instanceof VariantType) {
      return true;
    }
    if (type instanceof StructType struct) {
      return struct.fields().stream().anyMatch(field -> holdsVariant(field.getDataType()));
    }
    if (type instanceof ArrayType array) {
      return holdsVariant(array.getElementType());
    }
    return type instanceof MapType map && holdsVariant(map.getValueType());
  }

  /** The JSON text of the variant at {@code row} of a vector read as {@link #readType}. */
  public static String json(ColumnVector variant, int row) {
    ColumnVector value = variant.getChild(0);
    ColumnVector metadata = variant.getChild(1);
    if (metadata.isNullAt(row)) {
      throw new MalformedVariantException("a variant without its metadata");
    }
    if (((StructType) variant.getDataType()).length() > 2) {
      return ShreddedVariants.json(value, variant.getChild(2), metadata.getBinary(row), row);
    }
    if (value.isNullAt(row)) {
      throw new MalformedVariantException("an unshredded variant without its value");
    }
    return VariantJson.toJson(value.getBinary(row), metadata.getBinary(row));
  }
}
