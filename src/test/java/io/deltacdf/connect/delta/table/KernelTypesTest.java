package io.deltacdf.connect.delta.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.DataType;
import io.delta.kernel.types.GeographyType;
import io.delta.kernel.types.GeometryType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import io.deltacdf.connect.change.FieldType;
import org.junit.jupiter.api.Test;

/** Every Kernel type maps to the connector's model; one Kernel adds later is named, not guessed. */
class KernelTypesTest {

  @Test
  void variantsAndShapesMapWithTheirReferenceSystem() {
    StructType schema =
        new StructType()
            .add("id", IntegerType.INTEGER)
            .add("doc", VariantType.VARIANT)
            .add("shape", GeometryType.ofCRS("SRID:3857"))
            .add("place", GeographyType.ofDefault());

    assertThat(KernelTypes.toStruct(schema).fields())
        .extracting(FieldType.Field::type)
        .containsExactly(
            new FieldType.Primitive(FieldType.PrimitiveKind.INT),
            new FieldType.Primitive(FieldType.PrimitiveKind.VARIANT),
            new FieldType.Geospatial(false, "SRID:3857"),
            new FieldType.Geospatial(true, GeographyType.DEFAULT_CRS));
  }

  @Test
  void aTypeKernelAddsLaterIsNamedWithItsColumn() {
    StructType schema =
        new StructType().add("outer", new StructType().add("when", new FutureType()));

    assertThatThrownBy(() -> KernelTypes.toStruct(schema))
        .hasMessageContaining("Column 'outer.when'")
        .hasMessageContaining("future_type")
        .hasMessageContaining("does not support");
  }

  /** Stands for a type of a later Kernel release. */
  private static final class FutureType extends DataType {
    @Override
    public boolean isNested() {
      return false;
    }

    @Override
    public int hashCode() {
      return 1;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof FutureType;
    }

    @Override
    public String toString() {
      return "future_type";
    }
  }
}
