package io.deltacdf.connect.testing;

import java.time.ZoneOffset;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.unsafe.types.VariantVal;

/** Spark's own JSON text of a variant, as {@code to_json} writes it in a UTC session. */
public final class SparkVariants {

  private SparkVariants() {}

  public static String toJson(VariantVal variant) {
    return toJson(variant.getValue(), variant.getMetadata());
  }

  public static String toJson(byte[] value, byte[] metadata) {
    return new Variant(value, metadata).toJson(ZoneOffset.UTC);
  }
}
