package io.deltacdf.connect.delta.variant;

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
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The Kernel types to read a shredded variant's {@code typed_value} with, from the Parquet types a
 * file declares (the variant shredding specification): a scalar column, a list of element groups,
 * or a group of field groups, each group holding an optional {@code value} and {@code typed_value}.
 */
final class ShreddedTypes {

  static final String TYPED_VALUE = "typed_value";

  private ShreddedTypes() {}

  /** A field or element group: its leftover {@code value} and its {@code typed_value}. */
  static StructType group(GroupType group) {
    StructType result = new StructType();
    if (group.containsField(VariantColumns.VALUE)) {
      result = result.add(VariantColumns.VALUE, BinaryType.BINARY, true);
    }
    if (group.containsField(TYPED_VALUE)) {
      result = result.add(TYPED_VALUE, typed(group.getType(TYPED_VALUE)), true);
    }
    return result;
  }

  static DataType typed(Type type) {
    if (type.isPrimitive()) {
      return scalar(type.asPrimitiveType());
    }
    GroupType group = type.asGroupType();
    if (group.getLogicalTypeAnnotation()
        instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      GroupType repeated = group.getType(0).asGroupType();
      return new ArrayType(group(repeated.getType(0).asGroupType()), true);
    }
    StructType fields = new StructType();
    for (Type field : group.getFields()) {
      fields = fields.add(field.getName(), group(field.asGroupType()), true);
    }
    return fields;
  }

  private static DataType scalar(PrimitiveType type) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    if (logical instanceof DecimalLogicalTypeAnnotation decimal) {
      return new DecimalType(decimal.getPrecision(), decimal.getScale());
    }
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return BooleanType.BOOLEAN;
      case INT32:
        if (logical instanceof IntLogicalTypeAnnotation integer) {
          return switch (integer.getBitWidth()) {
            case 8 -> ByteType.BYTE;
            case 16 -> ShortType.SHORT;
            default -> IntegerType.INTEGER;
          };
        }
        return logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
            ? DateType.DATE
            : IntegerType.INTEGER;
      case INT64:
        if (logical instanceof TimestampLogicalTypeAnnotation timestamp
            && timestamp.getUnit() == TimeUnit.MICROS) {
          return timestamp.isAdjustedToUTC()
              ? TimestampType.TIMESTAMP
              : TimestampNTZType.TIMESTAMP_NTZ;
        }
        if (logical == null || logical instanceof IntLogicalTypeAnnotation) {
          return LongType.LONG;
        }
        break;
      case FLOAT:
        return FloatType.FLOAT;
      case DOUBLE:
        return DoubleType.DOUBLE;
      case BINARY:
        return logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            ? StringType.STRING
            : BinaryType.BINARY;
      default:
        break;
    }
    throw new IllegalArgumentException(
        "A shredded variant column of Parquet type "
            + type
            + ", which this connector does not read (nanosecond times, UUIDs)");
  }
}
