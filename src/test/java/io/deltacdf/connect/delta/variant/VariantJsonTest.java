package io.deltacdf.connect.delta.variant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.delta.variant.testing.RandomJson;
import io.deltacdf.connect.testing.SparkHarness;
import io.deltacdf.connect.testing.SparkVariants;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.unsafe.types.VariantVal;
import org.junit.jupiter.api.Test;

/**
 * Our JSON text of a variant is Spark's {@code to_json} text, character for character: Spark builds
 * the variants (from JSON and by casting typed values) and writes their text; we decode the same
 * bytes.
 */
class VariantJsonTest {

  /** Every primitive Spark can put in a variant, and the JSON shapes around them. */
  private static final List<String> EXPRESSIONS =
      List.of(
          "parse_json('{\"b\": [1, 2.5, \"x\"], \"a\": {\"c\": null}, \"é\": true}')",
          "parse_json('[]')",
          "parse_json('{}')",
          "parse_json('null')",
          "parse_json('\"tab\\\\t quote\\\\\" slash\\\\/ ctl\\\\u0001 é 中 😀\"')",
          "parse_json('-128')",
          "parse_json('32767')",
          "parse_json('2147483648')",
          "parse_json('-9223372036854775808')",
          "parse_json('12345678901234567890')",
          "parse_json('1.50')",
          "parse_json('0.000000000000000000000000000000000001')",
          "parse_json('1e20')",
          "parse_json('-1.5E-7')",
          "parse_json('3.141592653589793238462643383279502884197')",
          "CAST(CAST(7 AS TINYINT) AS VARIANT)",
          "CAST(CAST(-300 AS SMALLINT) AS VARIANT)",
          "CAST(70000 AS VARIANT)",
          "CAST(9000000000L AS VARIANT)",
          "CAST(CAST(1.5 AS FLOAT) AS VARIANT)",
          "CAST(CAST('NaN' AS FLOAT) AS VARIANT)",
          "CAST(CAST(0.1 AS DOUBLE) AS VARIANT)",
          "CAST(CAST('-Infinity' AS DOUBLE) AS VARIANT)",
          "CAST(CAST(1e300 AS DOUBLE) AS VARIANT)",
          "CAST(CAST(12.30 AS DECIMAL(9, 2)) AS VARIANT)",
          "CAST(CAST(-1234567890.123400 AS DECIMAL(18, 6)) AS VARIANT)",
          "CAST(CAST('12345678901234567890.123456789012345678' AS DECIMAL(38, 18)) AS VARIANT)",
          "CAST(CAST(100 AS DECIMAL(5, 0)) AS VARIANT)",
          "CAST(true AS VARIANT)",
          "CAST(false AS VARIANT)",
          "CAST(DATE'2024-02-29' AS VARIANT)",
          "CAST(DATE'0001-01-01' AS VARIANT)",
          "CAST(TIMESTAMP'2024-02-29 13:14:15.123456' AS VARIANT)",
          "CAST(TIMESTAMP'1969-12-31 23:59:59.5' AS VARIANT)",
          "CAST(TIMESTAMP'2024-01-01 00:00:00' AS VARIANT)",
          "CAST(TIMESTAMP_NTZ'2024-02-29 13:14:15.1' AS VARIANT)",
          "CAST(X'00FF10' AS VARIANT)",
          "CAST('plain string' AS VARIANT)",
          "CAST(array(1, null, 3) AS VARIANT)",
          "to_variant_object(named_struct('z', 1, 'a', DATE'2020-01-01'))",
          "to_variant_object(map('k', CAST(2.5 AS DOUBLE)))");

  @Test
  void everyKindIsWrittenAsSparkWritesIt() {
    String array = String.join(", ", EXPRESSIONS);
    assertSameText(
        SparkHarness.spark()
            .sql("SELECT v, to_json(v) FROM (SELECT explode(array(" + array + ")) AS v)")
            .collectAsList());
  }

  @Test
  void randomDocumentsAreWrittenAsSparkWritesThem() {
    RandomJson random = new RandomJson(Long.getLong("variant.seed", 20261204L));
    List<String> documents = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      documents.add(random.value(4));
    }
    // Large containers and values: 4-byte sizes and offsets, up to 1 MiB of text.
    documents.add(random.document(3, 70_000));
    documents.add(random.document(5, 1 << 20));
    List<Row> rows =
        SparkHarness.spark()
            .createDataset(documents, Encoders.STRING())
            .selectExpr("parse_json(value) AS v")
            .selectExpr("v", "to_json(v)")
            .collectAsList();
    assertThat(rows).hasSize(documents.size());
    assertSameText(rows);
  }

  /** Spark's variants hold no UUID nor nanosecond types; the specification does. */
  @Test
  void typesSparkCannotMakeFollowTheSpecification() {
    byte[] noKeys = {1, 0, 0};
    byte[] uuid = new byte[17];
    uuid[0] = 20 << 2;
    for (int i = 1; i < 17; i++) {
      uuid[i] = (byte) (0xF0 + i);
    }
    assertThat(VariantJson.toJson(uuid, noKeys))
        .isEqualTo("\"f1f2f3f4-f5f6-f7f8-f9fa-fbfcfdfeff00\"")
        .isEqualTo(SparkVariants.toJson(uuid, noKeys));
    long nanos = 1_700_000_000_123_456_789L;
    assertThat(VariantJson.toJson(primitive(18, nanos), noKeys))
        .isEqualTo("\"2023-11-14 22:13:20.123456789+00:00\"");
    assertThat(VariantJson.toJson(primitive(19, nanos), noKeys))
        .isEqualTo("\"2023-11-14 22:13:20.123456789\"");
    assertThat(VariantJson.toJson(primitive(17, 3_723_000_001L), noKeys))
        .isEqualTo("\"01:02:03.000001\"");
  }

  @Test
  void malformedBytesAreRefusedNotMisread() {
    byte[] noKeys = {1, 0, 0};
    assertThatThrownBy(() -> VariantJson.toJson(new byte[] {(byte) (16 << 2), 9, 0, 0, 0}, noKeys))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("ends before byte");
    assertThatThrownBy(() -> VariantJson.toJson(new byte[] {0}, new byte[] {2, 0, 0}))
        .isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("metadata version 2");
  }

  private static byte[] primitive(int type, long littleEndian) {
    byte[] bytes = new byte[9];
    bytes[0] = (byte) (type << 2);
    for (int i = 0; i < 8; i++) {
      bytes[1 + i] = (byte) (littleEndian >>> (8 * i));
    }
    return bytes;
  }

  private static void assertSameText(List<Row> rows) {
    for (Row row : rows) {
      VariantVal variant = (VariantVal) row.get(0);
      assertThat(VariantJson.toJson(variant.getValue(), variant.getMetadata()))
          .isEqualTo(row.getString(1));
    }
  }
}
