package io.deltacdf.connect.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How enum-valued settings are spelt: a constant's value is its name in lower case with '-' for '_'
 * ({@code SHARED_KEY} is {@code shared-key}), accepted in any case and with spaces around.
 */
public final class EnumSettings {

  private EnumSettings() {}

  /** The setting value that stands for {@code constant}. */
  public static String valueOf(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Every value of {@code type}, in declaration order. */
  public static <E extends Enum<E>> List<String> values(Class<E> type) {
    return Arrays.stream(type.getEnumConstants()).map(EnumSettings::valueOf).toList();
  }

  /**
   * The constant {@code value} stands for.
   *
   * @throws IllegalArgumentException listing the valid values
   */
  public static <E extends Enum<E>> E parse(Class<E> type, String value) {
    String text = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    for (E constant : type.getEnumConstants()) {
      if (valueOf(constant).equals(text)) {
        return constant;
      }
    }
    throw new IllegalArgumentException(
        "Unknown value '" + value + "'; use one of " + String.join(", ", values(type)));
  }
}
