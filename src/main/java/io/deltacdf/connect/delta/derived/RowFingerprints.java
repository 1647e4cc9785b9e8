package io.deltacdf.connect.delta.derived;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Fingerprints of rows: the first 128 bits of SHA-256 over a canonical byte encoding of the values
 * (each value tagged with its type and, when variable, its length, so that distinct rows of one
 * schema never encode alike). {@link RowDiff} keeps 127 of the bits, so among n rows of one version
 * two distinct ones share a fingerprint with probability below n^2 / 2^128, about 3 * 10^-25 for
 * 10^7 rows.
 *
 * <p>One instance per thread: it reuses its buffer and digest.
 */
public final class RowFingerprints {

  private final MessageDigest digest;
  private byte[] buffer = new byte[256];
  private int length;

  public RowFingerprints() {
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java runtime has SHA-256", e);
    }
  }

  /** A 128-bit fingerprint, as two longs. */
  public record Fingerprint(long high, long low) {}

  public Fingerprint of(Object[] row) {
    length = 0;
    encodeStruct(row);
    digest.update(buffer, 0, length);
    byte[] hash = digest.digest();
    return new Fingerprint(longAt(hash, 0), longAt(hash, 8));
  }

  /** A 64-bit fingerprint of the values at {@code columns}, to tell keys apart. */
  public long ofColumns(Object[] row, int[] columns) {
    length = 0;
    for (int column : columns) {
      encode(row[column]);
    }
    digest.update(buffer, 0, length);
    return longAt(digest.digest(), 0);
  }

  private static long longAt(byte[] bytes, int offset) {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (bytes[offset + i] & 0xFF);
    }
    return value;
  }

  private void encodeStruct(Object[] values) {
    writeInt(values.length);
    for (Object value : values) {
      encode(value);
    }
  }

  private void encode(Object value) {
    if (value == null) {
      writeByte(0);
    } else if (value instanceof Boolean b) {
      writeByte(1);
      writeByte(b ? 1 : 0);
    } else if (value instanceof Byte b) {
      writeByte(2);
      writeByte(b);
    } else if (value instanceof Short s) {
      writeByte(3);
      writeInt(s);
    } else if (value instanceof Integer i) {
      writeByte(4);
      writeInt(i);
    } else if (value instanceof Long l) {
      writeByte(5);
      writeLong(l);
    } else if (value instanceof Float f) {
      writeByte(6);
      writeInt(Float.floatToIntBits(f));
    } else if (value instanceof Double d) {
      writeByte(7);
      writeLong(Double.doubleToLongBits(d));
    } else if (value instanceof String s) {
      writeByte(8);
      writeBytes(s.getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof byte[] bytes) {
      writeByte(9);
      writeBytes(bytes);
    } else if (value instanceof BigDecimal d) {
      writeByte(10);
      writeInt(d.scale());
      writeBytes(d.unscaledValue().toByteArray());
    } else if (value instanceof LocalDate d) {
      writeByte(11);
      writeLong(d.toEpochDay());
    } else if (value instanceof Instant t) {
      writeByte(12);
      writeLong(t.getEpochSecond());
      writeInt(t.getNano());
    } else if (value instanceof LocalDateTime t) {
      writeByte(13);
      writeLong(t.toEpochSecond(ZoneOffset.UTC));
      writeInt(t.getNano());
    } else if (value instanceof Object[] struct) {
      writeByte(14);
      encodeStruct(struct);
    } else if (value instanceof List<?> list) {
      writeByte(15);
      writeInt(list.size());
      for (Object element : list) {
        encode(element);
      }
    } else if (value instanceof Map<?, ?> map) {
      writeByte(16);
      writeInt(map.size());
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        encode(entry.getKey());
        encode(entry.getValue());
      }
    } else {
      throw new IllegalArgumentException("No fingerprint for a " + value.getClass().getName());
    }
  }

  private void writeBytes(byte[] bytes) {
    writeInt(bytes.length);
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buffer, length, bytes.length);
    length += bytes.length;
  }

  private void writeByte(int value) {
    ensure(1);
    buffer[length++] = (byte) value;
  }

  private void writeInt(int value) {
    ensure(4);
    for (int shift = 24; shift >= 0; shift -= 8) {
      buffer[length++] = (byte) (value >>> shift);
    }
  }

  private void writeLong(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buffer[length++] = (byte) (value >>> shift);
    }
  }

  private void ensure(int more) {
    if (length + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
    }
  }
}
