package io.deltacdf.connect.testing;

import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The column types the random workloads use: their Spark SQL name, their {@link FieldType} in our
 * value model, and a generator of typed, non-null SQL literals with edge cases mixed in.
 */
public enum ColumnType {
  BOOLEAN("BOOLEAN", prim(PrimitiveKind.BOOLEAN), r -> r.nextBoolean() ? "true" : "false"),
  TINYINT(
      "TINYINT",
      prim(PrimitiveKind.BYTE),
      r -> cast(pick(r, "-128", "127", "0", r.nextInt(256) - 128), "TINYINT")),
  SMALLINT(
      "SMALLINT",
      prim(PrimitiveKind.SHORT),
      r -> cast(pick(r, "-32768", "32767", r.nextInt(65536) - 32768), "SMALLINT")),
  INT(
      "INT",
      prim(PrimitiveKind.INT),
      r -> cast(pick(r, Integer.MIN_VALUE, Integer.MAX_VALUE, r.nextInt(2001) - 1000), "INT")),
  BIGINT(
      "BIGINT",
      prim(PrimitiveKind.LONG),
      r -> cast(pick(r, Long.MIN_VALUE, Long.MAX_VALUE, r.nextLong()), "BIGINT")),
  FLOAT(
      "FLOAT",
      prim(PrimitiveKind.FLOAT),
      r ->
          cast(
              quote(
                  pick(
                      r,
                      "NaN",
                      "-0.0",
                      "Infinity",
                      "-Infinity",
                      "1.0E-40",
                      Float.toString((r.nextFloat() - 0.5f) * 1e6f))),
              "FLOAT")),
  DOUBLE(
      "DOUBLE",
      prim(PrimitiveKind.DOUBLE),
      r ->
          cast(
              quote(
                  pick(
                      r,
                      "NaN",
                      "-0.0",
                      "-Infinity",
                      "4.9E-324",
                      Double.toString((r.nextDouble() - 0.5) * 1e12))),
              "DOUBLE")),
  DECIMAL_10_2("DECIMAL(10,2)", new FieldType.Decimal(10, 2), r -> decimal(r, 10, 2)),
  DECIMAL_38_18("DECIMAL(38,18)", new FieldType.Decimal(38, 18), r -> decimal(r, 38, 18)),
  STRING("STRING", prim(PrimitiveKind.STRING), ColumnType::stringLiteral),
  BINARY("BINARY", prim(PrimitiveKind.BINARY), ColumnType::binaryLiteral),
  DATE(
      "DATE",
      prim(PrimitiveKind.DATE),
      r ->
          "DATE'"
              + pick(
                  r,
                  "0001-01-01",
                  "1582-10-04",
                  "9999-12-31",
                  LocalDate.ofEpochDay(-25_000 + r.nextInt(75_000)))
              + "'"),
  TIMESTAMP(
      "TIMESTAMP", prim(PrimitiveKind.TIMESTAMP), r -> "TIMESTAMP'" + randomDateTime(r) + "'"),
  TIMESTAMP_NTZ(
      "TIMESTAMP_NTZ",
      prim(PrimitiveKind.TIMESTAMP_NTZ),
      r -> "TIMESTAMP_NTZ'" + randomDateTime(r) + "'"),
  STRUCT(
      "STRUCT<a: INT, b: STRING>",
      new FieldType.Struct(
          List.of(
              new FieldType.Field("a", prim(PrimitiveKind.INT), true),
              new FieldType.Field("b", prim(PrimitiveKind.STRING), true))),
      r ->
          cast(
              "named_struct('a', " + orNull(r, INT) + ", 'b', " + orNull(r, STRING) + ")",
              "STRUCT<a: INT, b: STRING>")),
  ARRAY("ARRAY<INT>", new FieldType.Array(prim(PrimitiveKind.INT), true), ColumnType::arrayLiteral),
  MAP(
      "MAP<STRING, INT>",
      new FieldType.MapType(prim(PrimitiveKind.STRING), prim(PrimitiveKind.INT), true),
      ColumnType::mapLiteral);

  /** The types a partition column may have, the common ones weighted up. */
  public static final List<ColumnType> PARTITION_TYPES =
      List.of(STRING, STRING, INT, INT, DATE, DATE, DECIMAL_10_2, TIMESTAMP);

  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
  private static final String[] STRINGS = {
    "", " ", "héllo", "日本語", "emoji 😀", "it\\'s", "tab\\there", "x,y=z"
  };

  private final String sql;
  private final FieldType fieldType;
  private final Function<Random, String> literal;

  ColumnType(String sql, FieldType fieldType, Function<Random, String> literal) {
    this.sql = sql;
    this.fieldType = fieldType;
    this.literal = literal;
  }

  /** The type as written in DDL. */
  public String sql() {
    return sql;
  }

  /** The type in our value model. */
  public FieldType fieldType() {
    return fieldType;
  }

  /** A random non-null SQL expression of exactly this type. */
  public String literal(Random random) {
    return literal.apply(random);
  }

  /** A random SQL expression of this type that is NULL with probability 0.15. */
  public String literalOrNull(Random random) {
    return random.nextInt(100) < 15 ? cast("NULL", sql) : literal(random);
  }

  private static FieldType prim(PrimitiveKind kind) {
    return new FieldType.Primitive(kind);
  }

  private static String cast(Object value, String type) {
    return "CAST(" + value + " AS " + type + ")";
  }

  private static String quote(Object value) {
    return "'" + value + "'";
  }

  private static String orNull(Random r, ColumnType type) {
    return r.nextInt(4) == 0 ? "NULL" : type.literal(r);
  }

  /** Mostly the random last choice, sometimes one of the edge cases before it. */
  private static Object pick(Random r, Object... choices) {
    return r.nextInt(4) == 0 ? choices[r.nextInt(choices.length - 1)] : choices[choices.length - 1];
  }

  private static String decimal(Random r, int precision, int scale) {
    String digits =
        r.nextInt(6) == 0 ? "9".repeat(precision) : randomDigits(r, 1 + r.nextInt(precision));
    BigDecimal value = new BigDecimal(new BigInteger(digits), scale);
    return cast(
        quote((r.nextBoolean() ? value : value.negate()).toPlainString()),
        "DECIMAL(" + precision + "," + scale + ")");
  }

  private static String randomDigits(Random r, int count) {
    StringBuilder digits = new StringBuilder(count);
    for (int i = 0; i < count; i++) {
      digits.append((char) ('0' + r.nextInt(10)));
    }
    return digits.toString();
  }

  private static String stringLiteral(Random r) {
    return r.nextInt(3) == 0
        ? quote(STRINGS[r.nextInt(STRINGS.length)])
        : quote("s" + Integer.toString(r.nextInt(1 << 20), 36));
  }

  private static String binaryLiteral(Random r) {
    byte[] bytes = new byte[r.nextInt(7)];
    r.nextBytes(bytes);
    return "X'" + HexFormat.of().formatHex(bytes) + "'";
  }

  /** A timestamp text with microseconds, mostly between 1906 and 2096. */
  private static String randomDateTime(Random r) {
    long micros = -2_000_000_000_000_000L + (long) (r.nextDouble() * 6_000_000_000_000_000L);
    return pick(
            r,
            "0001-01-01 00:00:00.000001",
            "1969-12-31 23:59:59.999999",
            "9999-12-31 23:59:59.999999",
            MICROS.format(
                LocalDateTime.ofInstant(
                    Instant.EPOCH.plus(micros, ChronoUnit.MICROS), ZoneOffset.UTC)))
        .toString();
  }

  private static String arrayLiteral(Random r) {
    List<String> elements = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      elements.add(orNull(r, INT));
    }
    return cast("array(" + String.join(", ", elements) + ")", "ARRAY<INT>");
  }

  private static String mapLiteral(Random r) {
    List<String> entries = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      entries.add(quote("k" + i) + ", " + orNull(r, INT));
    }
    return cast("map(" + String.join(", ", entries) + ")", "MAP<STRING, INT>");
  }
}
