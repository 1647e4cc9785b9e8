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

  /**
   * The deepest nesting of objects and arrays decoded. Spark builds variants from JSON with
   * Jackson, whose parser refuses more than 1,000 levels; a deeper value is not one Spark wrote,
   * and decoding it without a bound could overflow the stack.
   */
  public static final int MAX_DEPTH = 1_000;

  /**
   * How many times its encoded size (value plus metadata bytes) the JSON text of one variant may
   * be. Without repeated long keys a valid variant's text is at most about 8 times its bytes.
   */
  public static final int MAX_EXPANSION = 64;

  /** The longest JSON text of one variant, in characters, whatever its size. */
  public static final int MAX_TEXT_CHARS = 64 << 20;

  private VariantJson() {}

  /** The JSON text of a whole variant. */
  public static String toJson(byte[] value, byte[] metadata) {
    StringBuilder out = new StringBuilder(Math.max(16, Math.min(value.length, 1 << 20) * 2));
    append(value, VariantMetadata.of(metadata), out);
    return out.toString();
  }

  /** Appends the JSON text of the whole variant {@code value}. */
  public static void append(byte[] value, VariantMetadata metadata, StringBuilder out) {
    new Decoder(value, metadata, out).append(0, 0);
  }

  /** A field of an encoded object: its key and its value's JSON text. */
  public record ObjectField(String key, String json) {}

  /**
   * The fields of the object {@code value} holds, in stored (key) order, each decoded.
   *
   * @throws MalformedVariantException when the value is not an object
   */
  public static List<ObjectField> objectFields(byte[] value, VariantMetadata metadata) {
    if ((unsigned(value, 0) & 0x3) != OBJECT) {
      throw malformed("a shredded object's leftover value is not an object");
    }
    StringBuilder text = new StringBuilder();
    Decoder decoder = new Decoder(value, metadata, text);
    Container object = decoder.open(0, 0);
    List<ObjectField> fields = new ArrayList<>(object.count());
    for (int i = 0; i < object.count(); i++) {
      int start = text.length();
      decoder.append(object.child(i), 1);
      fields.add(new ObjectField(object.key(i), text.substring(start)));
    }
    return fields;
  }

  /**
   * Throws when {@code chars} of text exceed {@link #MAX_TEXT_CHARS}: a value built from several
   * parts (a shredded variant) is bounded as a whole.
   */
  public static void requireWithinLimit(int chars) {
    if (chars > MAX_TEXT_CHARS) {
      throw malformed("its JSON text exceeds " + MAX_TEXT_CHARS + " characters");
    }
  }

  /**
   * An object or array header, checked against the buffer: its count, where its ids and offsets
   * are, and where its children start.
   */
  private record Container(
      byte[] value,
      VariantMetadata metadata,
      int count,
      int ids,
      int idSize,
      int offsets,
      int offsetSize,
      int data,
      int dataSize) {

    /** Where child {@code i} starts; every offset lies inside the container's data. */
    int child(int i) {
      int offset = readUnsigned(value, offsets + i * offsetSize, offsetSize);
      if (offset >= dataSize) {
        throw malformed(
            "element offset " + offset + " outside its container's " + dataSize + " data bytes");
      }
      return data + offset;
    }

    String key(int i) {
      return metadata.key(readUnsigned(value, ids + i * idSize, idSize));
    }
  }

  /**
   * Decodes one value into {@code out}. Every value decoded is charged its own bytes (its header
   * and payload, not its children's): in a valid variant values occupy distinct bytes, so the
   * charge never exceeds the buffer; a value whose offsets share children (which could decode a few
   * bytes into billions of elements) is refused as soon as it does. The text is bounded by {@link
   * #MAX_EXPANSION} and {@link #MAX_TEXT_CHARS}, the nesting by {@link #MAX_DEPTH}.
   */
  private static final class Decoder {
    private final byte[] value;
    private final VariantMetadata metadata;
    private final StringBuilder out;
    private final int textStart;
    private final long textLimit;
    private long bytesLeft;

    Decoder(byte[] value, VariantMetadata metadata, StringBuilder out) {
      this.value = value;
      this.metadata = metadata;
      this.out = out;
      this.textStart = out.length();
      this.textLimit =
          Math.min(MAX_TEXT_CHARS, (long) MAX_EXPANSION * (value.length + metadata.size()));
      this.bytesLeft = value.length;
    }

    void append(int pos, int depth) {
      if (out.length() - textStart > textLimit) {
        throw malformed(
            "its JSON text exceeds "
                + textLimit
                + " characters ("
                + MAX_EXPANSION
                + " times its encoded size, at most "
                + MAX_TEXT_CHARS
                + ")");
      }
      int header = unsigned(value, pos);
      int typeInfo = header >>> 2;
      switch (header & 0x3) {
        case PRIMITIVE -> {
          charge(pos, 1 + primitiveSize(pos, typeInfo));
          appendPrimitive(value, pos, typeInfo, out);
        }
        case SHORT_STRING -> {
          charge(pos, 1 + typeInfo);
          appendString(text(value, pos + 1, typeInfo), out);
        }
        case OBJECT -> appendObject(open(pos, depth), depth);
        default -> appendArray(open(pos, depth), depth);
      }
    }

    /** Reads and checks the header of the object or array at {@code pos}, and charges it. */
    Container open(int pos, int depth) {
      if (depth >= MAX_DEPTH) {
        throw malformed("objects and arrays nested deeper than " + MAX_DEPTH + " levels");
      }
      int typeInfo = unsigned(value, pos) >>> 2;
      boolean object = (unsigned(value, pos) & 0x3) == OBJECT;
      int offsetSize = (typeInfo & 0x3) + 1;
      int idSize = object ? ((typeInfo >>> 2) & 0x3) + 1 : 0;
      int sizeBytes = (typeInfo & (object ? 0x10 : 0x4)) != 0 ? 4 : 1;
      int count = readUnsigned(value, pos + 1, sizeBytes);
      long headerSize = 1L + sizeBytes + (long) count * idSize + (count + 1L) * offsetSize;
      if (pos + headerSize > value.length) {
        throw malformed(
            (object ? "an object of " : "an array of ")
                + count
                + " elements does not fit in the value's "
                + value.length
                + " bytes");
      }
      charge(pos, headerSize);
      int ids = pos + 1 + sizeBytes;
      int offsets = ids + count * idSize;
      int data = offsets + (count + 1) * offsetSize;
      int dataSize = readUnsigned(value, offsets + count * offsetSize, offsetSize);
      if ((long) data + dataSize > value.length) {
        throw malformed("a container's data ends after the value's " + value.length + " bytes");
      }
      return new Container(
          value, metadata, count, ids, idSize, offsets, offsetSize, data, dataSize);
    }

    private void appendObject(Container object, int depth) {
      out.append('{');
      for (int i = 0; i < object.count(); i++) {
        if (i > 0) {
          out.append(',');
        }
        appendString(object.key(i), out);
        out.append(':');
        append(object.child(i), depth + 1);
      }
      out.append('}');
    }

    private void appendArray(Container array, int depth) {
      out.append('[');
      for (int i = 0; i < array.count(); i++) {
        if (i > 0) {
          out.append(',');
        }
        append(array.child(i), depth + 1);
      }
      out.append(']');
    }

    /** Charges the {@code bytes} the value at {@code pos} occupies, which must be in the buffer. */
    private void charge(int pos, long bytes) {
      check(value, (int) Math.min(Integer.MAX_VALUE, pos + bytes));
      bytesLeft -= bytes;
      if (bytesLeft < 0) {
        throw malformed(
            "its elements share bytes (they decode to more than the value's "
                + value.length
                + " bytes hold)");
      }
    }

    /** The bytes a primitive's payload takes after its header byte. */
    private int primitiveSize(int pos, int primitive) {
      return switch (primitive) {
        case 0, 1, 2 -> 0;
        case 3 -> 1;
        case 4 -> 2;
        case 5, 11, 14 -> 4;
        case 6, 7, 12, 13, 17, 18, 19 -> 8;
        case 8 -> 5;
        case 9 -> 9;
        case 10 -> 17;
        case 15, 16 -> 4 + readUnsigned(value, pos + 1, 4);
        case 20 -> 16;
        default -> throw malformed("unknown primitive type " + primitive);
      };
    }
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
