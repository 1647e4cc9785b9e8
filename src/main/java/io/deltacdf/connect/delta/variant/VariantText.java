package io.deltacdf.connect.delta.variant;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.Base64;
import java.util.Locale;
import java.util.UUID;

/**
 * Writes one scalar of a variant as JSON text, spelled the way Spark's {@code to_json} spells it:
 * decimals without trailing zeros, non-finite doubles and floats as quoted strings, dates and
 * timestamps as quoted {@code yyyy-MM-dd HH:mm:ss[.ffffff]} text (timestamps with a time zone in
 * UTC, with {@code +00:00}), binary as quoted base64, strings with Jackson's escapes.
 */
final class VariantText {

  private static final DateTimeFormatter LOCAL_TIMESTAMP =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral(' ')
          .append(DateTimeFormatter.ISO_LOCAL_TIME)
          .toFormatter(Locale.ROOT);

  private static final DateTimeFormatter UTC_TIMESTAMP =
      new DateTimeFormatterBuilder()
          .append(LOCAL_TIMESTAMP)
          .appendOffset("+HH:MM", "+00:00")
          .toFormatter(Locale.ROOT);

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private VariantText() {}

  /** Spark writes what Java writes, but JSON has no NaN or Infinity: those are quoted. */
  static void appendDouble(double d, StringBuilder out) {
    if (Double.isFinite(d)) {
      out.append(d);
    } else {
      appendQuoted(Double.toString(d), out);
    }
  }

  static void appendFloat(float f, StringBuilder out) {
    if (Float.isFinite(f)) {
      out.append(f);
    } else {
      appendQuoted(Float.toString(f), out);
    }
  }

  /** Decimals are written without trailing zeros, as Spark writes them. */
  static void appendDecimal(BigDecimal decimal, StringBuilder out) {
    out.append(decimal.stripTrailingZeros().toPlainString());
  }

  static void appendDate(int epochDay, StringBuilder out) {
    appendQuoted(LocalDate.ofEpochDay(epochDay).toString(), out);
  }

  /** A time of day, in microseconds since midnight. */
  static void appendTime(long micros, StringBuilder out) {
    appendQuoted(LocalTime.ofNanoOfDay(micros * 1_000).toString(), out);
  }

  /** A timestamp with time zone, in microseconds since the epoch, written in UTC. */
  static void appendTimestamp(long micros, StringBuilder out) {
    appendQuoted(UTC_TIMESTAMP.format(utc(micros, 1_000)), out);
  }

  /** A timestamp without time zone, in microseconds since the epoch. */
  static void appendLocalTimestamp(long micros, StringBuilder out) {
    appendQuoted(LOCAL_TIMESTAMP.format(utc(micros, 1_000)), out);
  }

  /** A timestamp with time zone, in nanoseconds since the epoch, written in UTC. */
  static void appendTimestampNanos(long nanos, StringBuilder out) {
    appendQuoted(UTC_TIMESTAMP.format(utc(nanos, 1)), out);
  }

  /** A timestamp without time zone, in nanoseconds since the epoch. */
  static void appendLocalTimestampNanos(long nanos, StringBuilder out) {
    appendQuoted(LOCAL_TIMESTAMP.format(utc(nanos, 1)), out);
  }

  static void appendBinary(byte[] bytes, StringBuilder out) {
    appendQuoted(Base64.getEncoder().encodeToString(bytes), out);
  }

  static void appendUuid(UUID uuid, StringBuilder out) {
    appendQuoted(uuid.toString(), out);
  }

  /**
   * A JSON string with the escapes Spark's writer (Jackson) uses: quote, backslash, and control
   * characters ({@code \b \t \n \f \r} short, the others as {@code \}{@code u00XX}); other
   * characters as they are.
   */
  static void appendString(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20) {
            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** A time stamp in {@code unitNanos}-nanosecond units since the epoch, in UTC. */
  private static ZonedDateTime utc(long units, long unitNanos) {
    long perSecond = 1_000_000_000L / unitNanos;
    return Instant.ofEpochSecond(
            Math.floorDiv(units, perSecond), Math.floorMod(units, perSecond) * unitNanos)
        .atZone(ZoneOffset.UTC);
  }

  private static void appendQuoted(String plain, StringBuilder out) {
    out.append('"').append(plain).append('"');
  }
}
