package io.deltacdf.connect.convert;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Fills new Connect structs with values converted for their own schema. {@link Struct#put(Field,
 * Object)} validates every value and, since Kafka 3.x, builds a {@code field: "<name>"} string for
 * each call: a row of 12 columns costs ~0.9 KB of garbage, the largest allocation of our own in the
 * benchmark's profile. Our values are made by converters built from that same schema, so they are
 * valid by construction; this writes them into the struct's value array instead, with the same
 * result ({@code get}, {@code equals}, every converter's output). Where the array cannot be reached
 * (a Kafka whose {@code Struct} keeps its values otherwise) it falls back to {@code put}, and with
 * assertions on (the tests) every value is validated as {@code put} would.
 */
final class StructSlots {

  private static final MethodHandle VALUES = valuesGetter();

  private StructSlots() {}

  /** The value array of a new struct, to fill with {@link #put}; null: use {@code put}. */
  static Object[] of(Struct struct) {
    if (VALUES == null) {
      return null;
    }
    try {
      return (Object[]) VALUES.invokeExact(struct);
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot read a Connect struct's values", e);
    }
  }

  /**
   * Sets {@code field} of {@code struct}, whose value array {@link #of} gave as {@code slots}, to
   * {@code value}, a value of the field's schema.
   */
  static void put(Struct struct, Object[] slots, Field field, Object value) {
    if (slots == null) {
      struct.put(field, value);
      return;
    }
    assert valid(field, value);
    slots[field.index()] = value;
  }

  private static boolean valid(Field field, Object value) {
    ConnectSchema.validateValue(field.name(), field.schema(), value);
    return true;
  }

  private static MethodHandle valuesGetter() {
    try {
      return MethodHandles.privateLookupIn(Struct.class, MethodHandles.lookup())
          .findGetter(Struct.class, "values", Object[].class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
