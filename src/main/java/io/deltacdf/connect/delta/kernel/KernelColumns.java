package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.internal.util.ColumnMapping;
import io.delta.kernel.types.StructField;

/** What Kernel's column mapping says about a column. */
public final class KernelColumns {

  private KernelColumns() {}

  /** The name data files use for {@code field}: its logical name unless columns are mapped. */
  public static String physicalName(StructField field) {
    return ColumnMapping.getPhysicalName(field);
  }
}
