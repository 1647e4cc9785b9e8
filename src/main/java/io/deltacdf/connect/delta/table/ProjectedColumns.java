package io.deltacdf.connect.delta.table;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.delta.kernel.KernelColumns;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's columns cut down to those a {@link ColumnSelection} keeps, by logical name and by
 * identity (a column it dropped once stays dropped under a new name), in the logical and the
 * physical schema alike: the Parquet reader is then asked for the kept columns only, so the others
 * are never decoded.
 *
 * @param logical the kept columns by logical name
 * @param physical the same columns by the names data files use, field for field
 */
record ProjectedColumns(StructType logical, StructType physical) {

  /**
   * @param physical {@code logical} as data files name it (the same shape, field for field)
   */
  static ProjectedColumns of(StructType logical, StructType physical, ColumnSelection columns) {
    if (columns.keepsAll()) {
      return new ProjectedColumns(logical, physical);
    }
    return prune(logical, physical, columns, List.of(), List.of());
  }

  /** The kept columns of {@code logical} (a schema whose physical names are not needed). */
  static StructType logical(StructType logical, ColumnSelection columns) {
    return of(logical, logical, columns).logical();
  }

  private static ProjectedColumns prune(
      StructType logical,
      StructType physical,
      ColumnSelection columns,
      List<String> parent,
      List<String> parentIdentity) {
    StructType keptLogical = new StructType();
    StructType keptPhysical = new StructType();
    for (int i = 0; i < logical.length(); i++) {
      StructField field = logical.at(i);
      StructField physicalField = physical.at(i);
      List<String> path = new ArrayList<>(parent);
      path.add(field.getName());
      List<String> identity = new ArrayList<>(parentIdentity);
      identity.add(KernelColumns.physicalName(field));
      boolean struct = field.getDataType() instanceof StructType;
      switch (columns.verdict(path, identity, struct)) {
        case KEEP -> {
          if (field.getDataType() instanceof ArrayType || field.getDataType() instanceof MapType) {
            columns.requireNothingInside(
                path, KernelTypes.toType(field.getDataType(), String.join(".", path)));
          }
          keptLogical = keptLogical.add(field);
          keptPhysical = keptPhysical.add(physicalField);
        }
        case DROP -> {}
        case DESCEND -> {
          ProjectedColumns nested =
              prune(
                  (StructType) field.getDataType(),
                  (StructType) physicalField.getDataType(),
                  columns,
                  path,
                  identity);
          StructType original = (StructType) field.getDataType();
          if (nested.logical().length() > 0 || original.length() == 0) {
            keptLogical = keptLogical.add(field.withDataType(nested.logical()));
            keptPhysical = keptPhysical.add(physicalField.withDataType(nested.physical()));
          }
        }
      }
    }
    return new ProjectedColumns(keptLogical, keptPhysical);
  }
}
