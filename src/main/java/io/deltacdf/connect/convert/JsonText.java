package io.deltacdf.connect.convert;

import java.math.BigDecimal;
import java.util.Base64;

/**
 * JSON scalars written as Jackson's UTF-8 generator writes them inside Kafka's JsonConverter, so
 * that our text and JsonConverter's bytes are the same: control characters as {@code \}{@code
 * uXXXX} (upper-case hex) but for the short escapes, surrogates escaped one by one, other non-ASCII
 * characters as they are, NaN and infinities as quoted strings, decimals as {@link
 * BigDecimal#toString()} (JsonConverter does not ask Jackson for plain notation).
 */
final class JsonText {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  private static final Base64.Encoder BASE64 = Base64.getEncoder();

  private JsonText() {}

  static void string(StringBuilder out, String value) {
    out.append('"');
    int done = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      out.append(value, done, i);
      done = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        default ->
            out.append("\\u")
                .append(HEX[c >> 12 & 0xF])
                .append(HEX[c >> 8 & 0xF])
                .append(HEX[c >> 4 & 0xF])
                .append(HEX[c & 0xF]);
      }
    }
    out.append(value, done, value.length()).append('"');
  }

  static void number(StringBuilder out, float value) {
    if (Float.isFinite(value)) {
      out.append(Float.toString(value));
    } else {
      out.append('"').append(Float.toString(value)).append('"');
    }
  }

  static void number(StringBuilder out, double value) {
    if (Double.isFinite(value)) {
      out.append(Double.toString(value));
    } else {
      out.append('"').append(Double.toString(value)).append('"');
    }
  }

  static void number(StringBuilder out, BigDecimal value) {
    out.append(value.toString());
  }

  static void bytes(StringBuilder out, byte[] value) {
    out.append('"').append(BASE64.encodeToString(value)).append('"');
  }
}
