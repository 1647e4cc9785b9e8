package io.deltacdf.connect.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where a table's feed starts when the connector has no stored offset for it. */
public enum StartMode {
  /** The current table contents as inserts, then every change after them. */
  SNAPSHOT,
  /** The oldest version whose changes can still be read. */
  EARLIEST,
  /** Only changes committed after the connector starts. */
  LATEST,
  /** The changes of {@code start.version} and after. */
  VERSION,
  /** The changes of the first version committed at or after {@code start.timestamp}. */
  TIMESTAMP;

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static StartMode parse(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Unknown start mode '" + value + "'; use one of " + allowed(), e);
    }
  }

  public static String allowed() {
    return Arrays.stream(values()).map(StartMode::configValue).collect(Collectors.joining(", "));
  }
}
