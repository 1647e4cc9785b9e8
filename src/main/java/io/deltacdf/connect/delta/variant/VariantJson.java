package io.deltacdf.connect.delta.variant;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Writes a variant value, in the binary encoding of the Delta and Parquet variant specification (a
 * {@code metadata} dictionary of keys and a {@code value}), as JSON text spelled the way Spark's
 * {@code to_json} spells it: object fields in their stored (key-sorted) order, decimals without
 * trailing zeros, non-finite doubles and floats as quoted strings, dates and timestamps as quoted
 * {@code yyyy-MM-dd HH:mm:ss[.ffffff]} text (timestamps with a time zone in UTC, with {@code
 * +00:00}), binary as quoted base64.
 */
public final class VariantJson {

  private static final int PRIMITIVE = 0;
  private static final int SHORT_STRING = 1;
  private static final int OBJECT = 2;

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

  private VariantJson() {}

  /** The JSON text of a whole variant. */
  public static String toJson(byte[] value, byte[] metadata) {
    StringBuilder out = new StringBuilder(Math.max(16, value.length * 2));
    append(value, 0, VariantMetadata.of(metadata), out);
    return out.toString();
  }

  /** Appends the JSON text of the value that starts at {@code pos} of {@code value}. */
  public static void append(byte[] value, int pos, VariantMetadata metadata, StringBuilder out) {
    int header = unsigned(value, pos);
    int basicType = header & 0x3;
    int typeInfo = header >>> 2;
    switch (basicType) {
      case PRIMITIVE -> appendPrimitive(value, pos, typeInfo, out);
      case SHORT_STRING -> appendString(text(value, pos + 1, typeInfo), out);
      case OBJECT -> appendObject(value, pos, typeInfo, metadata, out);
      default -> appendArray(value, pos, typeInfo, metadata, out);
    }
  }

  /** A field of an encoded object: its key and where its value starts. */
  public record ObjectField(String key, int pos) {}

  /**
   * The fields of the object that starts at {@code pos}, in stored (key) order.
   *
   * @throws MalformedVariantException when the value there is not an object
   */
  public static List<ObjectField> objectFields(byte[] value, int pos, VariantMetadata metadata) {
    int header = unsigned(value, pos);
    if ((header & 0x3) != OBJECT) {
      throw malformed("a shredded object's leftover value is not an object");
    }
    int typeInfo = header >>> 2;
    int offsetSize = (typeInfo & 0x3) + 1;
    int idSize = ((typeInfo >>> 2) & 0x3) + 1;
    int sizeBytes = (typeInfo & 0x10) != 0 ? 4 : 1;
    int count = readUnsigned(value, pos + 1, sizeBytes);
    int ids = pos + 1 + sizeBytes;
    int offsets = ids + count * idSize;
    int data = offsets + (count + 1) * offsetSize;
    List<ObjectField> fields = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      fields.add(
          new ObjectField(
              metadata.key(readUnsigned(value, ids + i * idSize, idSize)),
              data + readUnsigned(value, offsets + i * offsetSize, offsetSize)));
    }
    return fields;
  }

  private static void appendObject(
      byte[] value, int pos, int typeInfo, VariantMetadata metadata, StringBuilder out) {
    int offsetSize = (typeInfo & 0x3) + 1;
    int idSize = ((typeInfo >>> 2) & 0x3) + 1;
    boolean large = (typeInfo & 0x10) != 0;
    int sizeBytes = large ? 4 : 1;
    int count = readUnsigned(value, pos + 1, sizeBytes);
    int ids = pos + 1 + sizeBytes;
    int offsets = ids + count * idSize;
    int data = offsets + (count + 1) * offsetSize;
    out.append('{');
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        out.append(',');
      }
      appendString(metadata.key(readUnsigned(value, ids + i * idSize, idSize)), out);
      out.append(':');
      append(
          value, data + readUnsigned(value, offsets + i * offsetSize, offsetSize), metadata, out);
    }
    out.append('}');
  }

  private static void appendArray(
      byte[] value, int pos, int typeInfo, VariantMetadata metadata, StringBuilder out) {
    int offsetSize = (typeInfo & 0x3) + 1;
    boolean large = (typeInfo & 0x4) != 0;
    int sizeBytes = large ? 4 : 1;
    int count = readUnsigned(value, pos + 1, sizeBytes);
    int offsets = pos + 1 + sizeBytes;
    int data = offsets + (count + 1) * offsetSize;
    out.append('[');
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        out.append(',');
      }
      append(
          value, data + readUnsigned(value, offsets + i * offsetSize, offsetSize), metadata, out);
    }
    out.append(']');
  }

  private static void appendPrimitive(byte[] value, int pos, int primitive, StringBuilder out) {
    int at = pos + 1;
    switch (primitive) {
      case 0 -> out.append("null");
      case 1 -> out.append("true");
      case 2 -> out.append("false");
      case 3 -> out.append(value[at]);
      case 4 -> out.append((short) readLong(value, at, 2));
      case 5 -> out.append((int) readLong(value, at, 4));
      case 6 -> out.append(readLong(value, at, 8));
      case 7 -> appendDouble(Double.longBitsToDouble(readLong(value, at, 8)), out);
      case 8 ->
          appendDecimal(
              decimal(BigInteger.valueOf((int) readLong(value, at + 1, 4)), value, at), out);
      case 9 ->
          appendDecimal(decimal(BigInteger.valueOf(readLong(value, at + 1, 8)), value, at), out);
      case 10 -> appendDecimal(decimal(littleEndianInteger(value, at + 1, 16), value, at), out);
      case 11 -> appendDate((int) readLong(value, at, 4), out);
      case 12 -> appendTimestamp(readLong(value, at, 8), out);
      case 13 -> appendLocalTimestamp(readLong(value, at, 8), out);
      case 14 -> appendFloat(Float.intBitsToFloat((int) readLong(value, at, 4)), out);
      case 15 -> appendBinary(lengthPrefixed(value, at), out);
      case 16 -> appendString(new String(lengthPrefixed(value, at), StandardCharsets.UTF_8), out);
      case 17 ->
          appendQuoted(LocalTime.ofNanoOfDay(readLong(value, at, 8) * 1_000).toString(), out);
      case 18 -> appendQuoted(UTC_TIMESTAMP.format(utc(readLong(value, at, 8), 1)), out);
      case 19 -> appendQuoted(LOCAL_TIMESTAMP.format(utc(readLong(value, at, 8), 1)), out);
      case 20 -> appendQuoted(uuid(value, at).toString(), out);
      default -> throw malformed("unknown primitive type " + primitive);
    }
  }

  /** Spark writes what Java writes, but JSON has no NaN or Infinity: those are quoted. */
  public static void appendDouble(double d, StringBuilder out) {
    if (Double.isFinite(d)) {
      out.append(d);
    } else {
      appendQuoted(Double.toString(d), out);
    }
  }

  public static void appendFloat(float f, StringBuilder out) {
    if (Float.isFinite(f)) {
      out.append(f);
    } else {
      appendQuoted(Float.toString(f), out);
    }
  }

  /** A decimal's scale is the byte before its unscaled value. */
  private static BigDecimal decimal(BigInteger unscaled, byte[] value, int at) {
    return new BigDecimal(unscaled, unsigned(value, at));
  }

  /** Decimals are written without trailing zeros, as Spark writes them. */
  public static void appendDecimal(BigDecimal decimal, StringBuilder out) {
    out.append(decimal.stripTrailingZeros().toPlainString());
  }

  public static void appendDate(int epochDay, StringBuilder out) {
    appendQuoted(LocalDate.ofEpochDay(epochDay).toString(), out);
  }

  /** A timestamp with time zone, in microseconds since the epoch, written in UTC. */
  public static void appendTimestamp(long micros, StringBuilder out) {
    appendQuoted(UTC_TIMESTAMP.format(utc(micros, 1_000)), out);
  }

  /** A timestamp without time zone, in microseconds since the epoch. */
  public static void appendLocalTimestamp(long micros, StringBuilder out) {
    appendQuoted(LOCAL_TIMESTAMP.format(utc(micros, 1_000)), out);
  }

  public static void appendBinary(byte[] bytes, StringBuilder out) {
    appendQuoted(Base64.getEncoder().encodeToString(bytes), out);
  }

  /** A time stamp in {@code unitNanos}-nanosecond units since the epoch, in UTC. */
  private static ZonedDateTime utc(long units, long unitNanos) {
    long perSecond = 1_000_000_000L / unitNanos;
    return Instant.ofEpochSecond(
            Math.floorDiv(units, perSecond), Math.floorMod(units, perSecond) * unitNanos)
        .atZone(ZoneOffset.UTC);
  }

  private static UUID uuid(byte[] value, int at) {
    check(value, at + 16);
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = (high << 8) | (value[at + i] & 0xFF);
      low = (low << 8) | (value[at + 8 + i] & 0xFF);
    }
    return new UUID(high, low);
  }

  private static byte[] lengthPrefixed(byte[] value, int at) {
    int length = readUnsigned(value, at, 4);
    check(value, at + 4 + length);
    byte[] bytes = new byte[length];
    System.arraycopy(value, at + 4, bytes, 0, length);
    return bytes;
  }

  private static String text(byte[] value, int at, int length) {
    check(value, at + length);
    return new String(value, at, length, StandardCharsets.UTF_8);
  }

  private static void appendQuoted(String plain, StringBuilder out) {
    out.append('"').append(plain).append('"');
  }

  /**
   * A JSON string with the escapes Spark's writer (Jackson) uses: quote, backslash, and control
   * characters ({@code \b \t \n \f \r} short, the others as {@code \}{@code u00XX}); other
   * characters as they are.
   */
  public static void appendString(String s, StringBuilder out) {
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

  static int unsigned(byte[] bytes, int at) {
    check(bytes, at + 1);
    return bytes[at] & 0xFF;
  }

  /** An unsigned little-endian integer of 1 to 4 bytes. */
  static int readUnsigned(byte[] bytes, int at, int size) {
    long result = readLong(bytes, at, size) & ((1L << (8 * size)) - 1);
    if (result > Integer.MAX_VALUE) {
      throw malformed("size or offset " + result + " out of range");
    }
    return (int) result;
  }

  /** A little-endian integer of {@code size} bytes, sign-extended. */
  private static long readLong(byte[] bytes, int at, int size) {
    check(bytes, at + size);
    long result = 0;
    for (int i = size - 1; i >= 0; i--) {
      result = (result << 8) | (bytes[at + i] & 0xFF);
    }
    int unused = 64 - 8 * size;
    return unused == 0 ? result : (result << unused) >> unused;
  }

  private static BigInteger littleEndianInteger(byte[] bytes, int at, int size) {
    check(bytes, at + size);
    byte[] bigEndian = new byte[size];
    for (int i = 0; i < size; i++) {
      bigEndian[i] = bytes[at + size - 1 - i];
    }
    return new BigInteger(bigEndian);
  }

  private static void check(byte[] bytes, int end) {
    if (end > bytes.length) {
      throw malformed("value ends before byte " + end + " of " + bytes.length);
    }
  }

  static MalformedVariantException malformed(String what) {
    return new MalformedVariantException(what);
  }
}
