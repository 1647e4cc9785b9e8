package io.deltacdf.connect.convert;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * What JsonConverter with {@code schemas.enable=false} and {@code decimal.format=NUMERIC} writes
 * for a value, as text: what output.format=json must hand StringConverter for the same record.
 */
final class JsonConverterText {

  private static final JsonConverter CONVERTER = converter();

  private JsonConverterText() {}

  static String of(Schema schema, Object value) {
    return new String(CONVERTER.fromConnectData("t", schema, value), StandardCharsets.UTF_8);
  }

  private static JsonConverter converter() {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "false", "decimal.format", "NUMERIC"), false);
    return converter;
  }
}
