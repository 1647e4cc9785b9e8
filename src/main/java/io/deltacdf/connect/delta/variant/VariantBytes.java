package io.deltacdf.connect.delta.variant;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Reads the fields of the variant encoding out of its bytes: little-endian integers of 1 to 16
 * bytes, length-prefixed bytes, UTF-8 text and UUIDs. Every read is checked against the buffer, so
 * a value cut short is refused as malformed rather than read past its end.
 */
final class VariantBytes {

  private VariantBytes() {}

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
  static long readLong(byte[] bytes, int at, int size) {
    check(bytes, at + size);
    long result = 0;
    for (int i = size - 1; i >= 0; i--) {
      result = (result << 8) | (bytes[at + i] & 0xFF);
    }
    int unused = 64 - 8 * size;
    return unused == 0 ? result : (result << unused) >> unused;
  }

  static BigInteger littleEndianInteger(byte[] bytes, int at, int size) {
    check(bytes, at + size);
    byte[] bigEndian = new byte[size];
    for (int i = 0; i < size; i++) {
      bigEndian[i] = bytes[at + size - 1 - i];
    }
    return new BigInteger(bigEndian);
  }

  /** A UUID's 16 bytes, big-endian as the specification stores them. */
  static UUID uuid(byte[] bytes, int at) {
    check(bytes, at + 16);
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = (high << 8) | (bytes[at + i] & 0xFF);
      low = (low << 8) | (bytes[at + 8 + i] & 0xFF);
    }
    return new UUID(high, low);
  }

  /** The bytes after a 4-byte length. */
  static byte[] lengthPrefixed(byte[] bytes, int at) {
    int length = readUnsigned(bytes, at, 4);
    check(bytes, at + 4 + length);
    byte[] result = new byte[length];
    System.arraycopy(bytes, at + 4, result, 0, length);
    return result;
  }

  static String text(byte[] bytes, int at, int length) {
    check(bytes, at + length);
    return new String(bytes, at, length, StandardCharsets.UTF_8);
  }

  /** Throws unless the buffer holds {@code end} bytes. */
  static void check(byte[] bytes, int end) {
    if (end > bytes.length) {
      throw malformed("value ends before byte " + end + " of " + bytes.length);
    }
  }

  static MalformedVariantException malformed(String what) {
    return new MalformedVariantException(what);
  }
}
