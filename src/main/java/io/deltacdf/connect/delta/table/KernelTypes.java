package io.deltacdf.connect.delta.table;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.GeographyType;
import io.delta.kernel.types.GeometryType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.types.VariantType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import io.deltacdf.connect.delta.kernel.KernelColumns;
import java.util.ArrayList;
import java.util.List;

/** Translates Kernel's logical schema into the connector's own {@link FieldType} model. */
public final class KernelTypes {

  private KernelTypes() {}

  public static FieldType.Struct toStruct(StructType schema) {
    return toStruct(schema, "");
  }

  /** The connector's form of the type of the column at {@code path} (for messages). */
  static FieldType toType(DataType type, String path) {
    return toFieldType(type, path);
  }

  private static FieldType.Struct toStruct(StructType schema, String prefix) {
    List<FieldType.Field> fields = new ArrayList<>(schema.length());
    for (StructField field : schema.fields()) {
      String path = prefix + field.getName();
      fields.add(
          new FieldType.Field(
              field.getName(),
              toFieldType(field.getDataType(), path),
              field.isNullable(),
              KernelColumns.physicalName(field)));
    }
    return new FieldType.Struct(fields);
  }

  private static FieldType toFieldType(DataType type, String path) {
    if (type instanceof StructType struct) {
      return toStruct(struct, path + ".");
    }
    if (type instanceof ArrayType array) {
      return new FieldType.Array(
          toFieldType(array.getElementType(), path + ".element"), array.containsNull());
    }
    if (type instanceof MapType map) {
      return new FieldType.MapType(
          toFieldType(map.getKeyType(), path + ".key"),
          toFieldType(map.getValueType(), path + ".value"),
          map.isValueContainsNull());
    }
    if (type instanceof DecimalType decimal) {
      return new FieldType.Decimal(decimal.getPrecision(), decimal.getScale());
    }
    if (type instanceof GeometryType geometry) {
      return new FieldType.Geospatial(false, geometry.getCRS());
    }
    if (type instanceof GeographyType geography) {
      return new FieldType.Geospatial(true, geography.getCRS());
    }
    return new FieldType.Primitive(primitiveKind(type, path));
  }

  private static PrimitiveKind primitiveKind(DataType type, String path) {
    if (type instanceof BooleanType) return PrimitiveKind.BOOLEAN;
    if (type instanceof ByteType) return PrimitiveKind.BYTE;
    if (type instanceof ShortType) return PrimitiveKind.SHORT;
    if (type instanceof IntegerType) return PrimitiveKind.INT;
    if (type instanceof LongType) return PrimitiveKind.LONG;
    if (type instanceof FloatType) return PrimitiveKind.FLOAT;
    if (type instanceof DoubleType) return PrimitiveKind.DOUBLE;
    if (type instanceof StringType) return PrimitiveKind.STRING;
    if (type instanceof BinaryType) return PrimitiveKind.BINARY;
    if (type instanceof DateType) return PrimitiveKind.DATE;
    if (type instanceof TimestampType) return PrimitiveKind.TIMESTAMP;
    if (type instanceof TimestampNTZType) return PrimitiveKind.TIMESTAMP_NTZ;
    if (type instanceof VariantType) return PrimitiveKind.VARIANT;
    throw new UnsupportedColumnTypeException(path, type.toString());
  }

  /** A column whose Delta type the connector cannot represent yet (e.g. one Kernel adds later). */
  public static final class UnsupportedColumnTypeException extends IllegalArgumentException {
    public UnsupportedColumnTypeException(String column, String type) {
      super(
          "Column '"
              + column
              + "' has Delta type "
              + type
              + ", which this connector does not support; exclude the table or drop the column");
    }
  }
}
