package io.deltacdf.connect.delta.variant;

import static io.deltacdf.connect.delta.variant.VariantBytes.check;
import static io.deltacdf.connect.delta.variant.VariantBytes.lengthPrefixed;
import static io.deltacdf.connect.delta.variant.VariantBytes.littleEndianInteger;
import static io.deltacdf.connect.delta.variant.VariantBytes.malformed;
import static io.deltacdf.connect.delta.variant.VariantBytes.readLong;
import static io.deltacdf.connect.delta.variant.VariantBytes.readUnsigned;
import static io.deltacdf.connect.delta.variant.VariantBytes.text;
import static io.deltacdf.connect.delta.variant.VariantBytes.unsigned;
import static io.deltacdf.connect.delta.variant.VariantBytes.uuid;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a variant value, in the binary encoding of the Delta and Parquet variant specification (a
 * {@code metadata} dictionary of keys and a {@code value}), as JSON text spelled the way Spark's
 * {@code to_json} spells it: object fields in their stored (key-sorted) order, each scalar as
 * {@link VariantText} writes it. {@link VariantBytes} reads the encoding's fields, checked against
 * the buffer; the decoder here walks the values and bounds what a hostile value can cost.
 */
public final class VariantJson {

  private static final int PRIMITIVE = 0;
  private static final int SHORT_STRING = 1;
  private static final int OBJECT = 2;

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
  static void append(byte[] value, VariantMetadata metadata, StringBuilder out) {
    new Decoder(value, metadata, out).append(0, 0);
  }

  /** A field of an encoded object: its key and its value's JSON text. */
  record ObjectField(String key, String json) {}

  /**
   * The fields of the object {@code value} holds, in stored (key) order, each decoded.
   *
   * @throws MalformedVariantException when the value is not an object
   */
  static List<ObjectField> objectFields(byte[] value, VariantMetadata metadata) {
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
  static void requireWithinLimit(int chars) {
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
          VariantText.appendString(text(value, pos + 1, typeInfo), out);
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
        VariantText.appendString(object.key(i), out);
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
      case 7 -> VariantText.appendDouble(Double.longBitsToDouble(readLong(value, at, 8)), out);
      case 8 -> appendDecimal(BigInteger.valueOf((int) readLong(value, at + 1, 4)), value, at, out);
      case 9 -> appendDecimal(BigInteger.valueOf(readLong(value, at + 1, 8)), value, at, out);
      case 10 -> appendDecimal(littleEndianInteger(value, at + 1, 16), value, at, out);
      case 11 -> VariantText.appendDate((int) readLong(value, at, 4), out);
      case 12 -> VariantText.appendTimestamp(readLong(value, at, 8), out);
      case 13 -> VariantText.appendLocalTimestamp(readLong(value, at, 8), out);
      case 14 -> VariantText.appendFloat(Float.intBitsToFloat((int) readLong(value, at, 4)), out);
      case 15 -> VariantText.appendBinary(lengthPrefixed(value, at), out);
      case 16 ->
          VariantText.appendString(
              new String(lengthPrefixed(value, at), StandardCharsets.UTF_8), out);
      case 17 -> VariantText.appendTime(readLong(value, at, 8), out);
      case 18 -> VariantText.appendTimestampNanos(readLong(value, at, 8), out);
      case 19 -> VariantText.appendLocalTimestampNanos(readLong(value, at, 8), out);
      case 20 -> VariantText.appendUuid(uuid(value, at), out);
      default -> throw malformed("unknown primitive type " + primitive);
    }
  }

  /** A decimal's scale is the byte before its unscaled value. */
  private static void appendDecimal(BigInteger unscaled, byte[] value, int at, StringBuilder out) {
    VariantText.appendDecimal(new BigDecimal(unscaled, unsigned(value, at)), out);
  }
}
