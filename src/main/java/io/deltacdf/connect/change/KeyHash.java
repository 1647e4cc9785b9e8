package io.deltacdf.connect.change;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * The hash of a row's key values that decides its {@link TableShard}. It must give the same number
 * in every JVM and every release, or a key would change shards and lose its order, so it is defined
 * here over a canonical byte encoding of the values, not by {@code Object.hashCode}:
 *
 * <ul>
 *   <li>each key column in configured order, as one tag byte and its payload (big-endian);
 *   <li>null: tag 0;
 *   <li>boolean: tag 1, one byte 0 or 1;
 *   <li>a number with an integral value that fits a long (any integer type, and decimals, floats
 *       and doubles such as 3.0): tag 2, the 8-byte long; so type widening (int to long, to
 *       decimal, to double) keeps every key's shard;
 *   <li>any other float or double: tag 3, the 8 bytes of the double ({@code doubleToLongBits});
 *   <li>any other decimal: tag 4, the 4-byte scale and the unscaled value's two's-complement bytes
 *       (length-prefixed), trailing zeros stripped;
 *   <li>string: tag 5, the UTF-8 bytes (length-prefixed); binary: tag 6, the bytes
 *       (length-prefixed);
 *   <li>timestamp_ntz, and date as its midnight: tag 7, 8-byte microseconds since 1970-01-01 UTC
 *       (date to timestamp_ntz widening keeps the shard); timestamp: tag 8, microseconds;
 *   <li>struct: tag 9, arrays: tag 10, maps: tag 11; each with a 4-byte count and its members.
 * </ul>
 *
 * The hash is 64-bit FNV-1a over those bytes, finished by MurmurHash3's fmix64 so that the low bits
 * spread; the shard is the hash modulo the count, unsigned.
 */
public final class KeyHash {

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;
  private static final double LONG_LIMIT = 0x1p63;

  private long hash = FNV_OFFSET;

  private KeyHash() {}

  /** The hash of the values of {@code row} at {@code columns} (-1: a column the row lacks). */
  public static long of(Object[] row, int[] columns) {
    KeyHash key = new KeyHash();
    for (int column : columns) {
      key.value(column < 0 ? null : row[column]);
    }
    return fmix64(key.hash);
  }

  private void value(Object value) {
    if (value == null) {
      put(0);
    } else if (value instanceof Boolean b) {
      put(1);
      put(b ? 1 : 0);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      integral(((Number) value).longValue());
    } else if (value instanceof Byte b) {
      integral(b);
    } else if (value instanceof Double || value instanceof Float) {
      floating(((Number) value).doubleValue());
    } else if (value instanceof BigDecimal decimal) {
      decimal(decimal);
    } else if (value instanceof String s) {
      put(5);
      bytes(s.getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof byte[] bytes) {
      put(6);
      bytes(bytes);
    } else if (value instanceof LocalDate date) {
      put(7);
      putLong(Math.multiplyExact(date.toEpochDay(), 86_400_000_000L));
    } else if (value instanceof LocalDateTime time) {
      put(7);
      putLong(micros(time.toInstant(ZoneOffset.UTC)));
    } else if (value instanceof Instant instant) {
      put(8);
      putLong(micros(instant));
    } else if (value instanceof Object[] struct) {
      put(9);
      putInt(struct.length);
      for (Object field : struct) {
        value(field);
      }
    } else if (value instanceof List<?> list) {
      put(10);
      putInt(list.size());
      list.forEach(this::value);
    } else if (value instanceof Map<?, ?> map) {
      put(11);
      putInt(map.size());
      map.forEach(
          (k, v) -> {
            value(k);
            value(v);
          });
    } else {
      throw new IllegalArgumentException(
          "A key column value of type " + value.getClass().getName() + " has no shard hash");
    }
  }

  private void integral(long value) {
    put(2);
    putLong(value);
  }

  private void floating(double value) {
    if (value == Math.rint(value) && Math.abs(value) < LONG_LIMIT) {
      integral((long) value);
      return;
    }
    put(3);
    putLong(Double.doubleToLongBits(value));
  }

  private void decimal(BigDecimal value) {
    BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 19) {
      try {
        integral(stripped.longValueExact());
        return;
      } catch (ArithmeticException beyondLong) {
        // encoded as a decimal below
      }
    }
    put(4);
    putInt(stripped.scale());
    bytes(stripped.unscaledValue().toByteArray());
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private void bytes(byte[] bytes) {
    putInt(bytes.length);
    for (byte b : bytes) {
      put(b);
    }
  }

  private void putInt(int value) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      put(value >>> shift);
    }
  }

  private void putLong(long value) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      put((int) (value >>> shift));
    }
  }

  private void put(int b) {
    hash = (hash ^ (b & 0xff)) * FNV_PRIME;
  }

  private static long fmix64(long h) {
    long k = h;
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
