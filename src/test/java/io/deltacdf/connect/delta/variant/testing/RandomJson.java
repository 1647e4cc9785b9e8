package io.deltacdf.connect.delta.variant.testing;

import java.util.Random;

/**
 * Random JSON documents that reach every shape of the variant encoding: nested objects and arrays,
 * small and large (more than 255 elements, offsets over 65,535 bytes), repeated and unicode keys,
 * strings with escapes and characters outside the BMP, integers of every width, decimals and
 * doubles, true, false and null.
 */
public final class RandomJson {

  private static final String[] KEYS = {
    "id", "name", "a", "b", "é", "😀 key", "with \"quote\"", "tab\tkey", "nested", "list", "x"
  };

  private final Random random;

  public RandomJson(long seed) {
    this.random = new Random(seed);
  }

  /** A document of roughly {@code targetBytes} of JSON text or more. */
  public String document(int maxDepth, int targetBytes) {
    StringBuilder out = new StringBuilder();
    out.append('[');
    int before = out.length();
    do {
      if (out.length() > before) {
        out.append(',');
      }
      value(out, maxDepth);
    } while (out.length() < targetBytes);
    out.append(']');
    return random.nextBoolean() ? out.toString() : "{\"doc\":" + out + ",\"id\":1}";
  }

  /**
   * An event-like object whose fields mostly keep their types, as bronze tables hold, so that
   * writers shred it: typed fields, a nested object, a list of objects, a field whose type varies,
   * and rare fields left in the leftover value.
   */
  public String record(int id) {
    StringBuilder out = new StringBuilder("{\"id\":").append(id).append(",\"name\":");
    string(out, text());
    out.append(",\"score\":").append(random.nextInt(4) == 0 ? "\"n/a\"" : decimal());
    out.append(",\"ratio\":").append(random.nextDouble());
    out.append(",\"ok\":").append(random.nextBoolean());
    out.append(",\"address\":{\"city\":");
    string(out, text());
    out.append(",\"zip\":").append(random.nextInt(99999)).append('}');
    out.append(",\"lines\":[");
    for (int i = 0, n = random.nextInt(4); i < n; i++) {
      out.append(i > 0 ? "," : "").append("{\"sku\":");
      string(out, text());
      out.append(",\"qty\":").append(random.nextInt(10)).append('}');
    }
    out.append(']');
    if (random.nextInt(5) == 0) {
      out.append(",\"rare_").append(random.nextInt(3)).append("\":");
      value(out, 2);
    }
    return out.append('}').toString();
  }

  /** One value of any kind, containers to {@code depth} levels. */
  public String value(int depth) {
    StringBuilder out = new StringBuilder();
    value(out, depth);
    return out.toString();
  }

  private void value(StringBuilder out, int depth) {
    int kind = random.nextInt(depth > 0 ? 10 : 8);
    switch (kind) {
      case 0 -> out.append("null");
      case 1 -> out.append(random.nextBoolean());
      case 2 -> out.append(integer());
      case 3 -> out.append(decimal());
      case 4 -> out.append(random.nextDouble() * Math.pow(10, random.nextInt(60) - 30));
      case 5, 6, 7 -> string(out, text());
      case 8 -> object(out, depth - 1);
      default -> array(out, depth - 1);
    }
  }

  private String integer() {
    return switch (random.nextInt(5)) {
      case 0 -> Integer.toString(random.nextInt(256) - 128);
      case 1 -> Integer.toString(random.nextInt(65536) - 32768);
      case 2 -> Integer.toString(random.nextInt());
      case 3 -> Long.toString(random.nextLong());
      default -> "123456789012345678901234567890";
    };
  }

  private String decimal() {
    int scale = 1 + random.nextInt(18);
    long unscaled = random.nextLong() / (1L << random.nextInt(40));
    return new java.math.BigDecimal(java.math.BigInteger.valueOf(unscaled), scale).toPlainString();
  }

  private void object(StringBuilder out, int depth) {
    int size = wide(depth) ? 300 : random.nextInt(6);
    out.append('{');
    for (int i = 0; i < size; i++) {
      if (i > 0) {
        out.append(',');
      }
      // Keys are made unique per object: JSON with duplicate keys is refused by parse_json.
      string(out, KEYS[random.nextInt(KEYS.length)] + "_" + i);
      out.append(':');
      value(out, depth);
    }
    out.append('}');
  }

  private void array(StringBuilder out, int depth) {
    int size = wide(depth) ? 300 : random.nextInt(6);
    out.append('[');
    for (int i = 0; i < size; i++) {
      if (i > 0) {
        out.append(',');
      }
      value(out, depth);
    }
    out.append(']');
  }

  /**
   * Whether a container gets more than 255 members (the encoding's large form). Only innermost
   * containers, whose members are scalars, are made wide, which keeps documents near their size.
   */
  private boolean wide(int depth) {
    return depth == 0 && random.nextInt(10) == 0;
  }

  private String text() {
    int length = random.nextInt(20) == 0 ? 70 + random.nextInt(200) : random.nextInt(12);
    StringBuilder s = new StringBuilder();
    String alphabet = "abc xyz\"\\/\n\t\r\b\f\u0001\u001fé中😀";
    for (int i = 0; i < length; i++) {
      int at = random.nextInt(alphabet.length());
      char c = alphabet.charAt(at);
      if (Character.isSurrogate(c)) {
        s.append("😀");
      } else {
        s.append(c);
      }
    }
    return s.toString();
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
