package io.deltacdf.connect.it.sink.testing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * Rows of a Delta table (read by Spark) and of its PostgreSQL mirror in one comparable form: one
 * string per row, {@code col=value|...} over the given columns, sorted. Decimals compare by value
 * (the sink may keep another scale), timestamps as epoch microseconds (UTC), dates ISO, strings
 * quoted; a column the row lacks is {@code null}.
 */
public final class MirrorRows {

  private MirrorRows() {}

  public static List<String> ofSpark(List<Row> rows, List<String> columns) {
    List<String> result = new ArrayList<>();
    for (Row row : rows) {
      List<String> names = List.of(row.schema().fieldNames());
      StringJoiner line = new StringJoiner("|");
      for (String column : columns) {
        Object value = names.contains(column) ? row.get(row.fieldIndex(column)) : null;
        line.add(column + "=" + format(value));
      }
      result.add(line.toString());
    }
    result.sort(null);
    return result;
  }

  /** The table's rows, or an empty list while the sink has not created it yet. */
  public static List<String> ofPostgres(Connection connection, String table, List<String> columns)
      throws SQLException {
    List<String> result = new ArrayList<>();
    try (Statement statement = connection.createStatement()) {
      if (!tableExists(statement, table)) {
        return result;
      }
      try (ResultSet rs = statement.executeQuery("SELECT * FROM " + table)) {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> present = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          present.add(meta.getColumnName(i));
        }
        while (rs.next()) {
          StringJoiner line = new StringJoiner("|");
          for (String column : columns) {
            int index = present.indexOf(column) + 1;
            Object value =
                index == 0 ? null : postgresValue(rs, index, meta.getColumnTypeName(index));
            line.add(column + "=" + format(value));
          }
          result.add(line.toString());
        }
      }
    }
    result.sort(null);
    return result;
  }

  public static long count(Connection connection, String table) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      if (!tableExists(statement, table)) {
        return 0;
      }
      try (ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + table)) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** The columns of the PostgreSQL table with their SQL types, e.g. {@code amount numeric}. */
  public static List<String> columnTypes(Connection connection, String table) throws SQLException {
    List<String> result = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT column_name, data_type"
                    + " FROM information_schema.columns WHERE table_name = '"
                    + table
                    + "' ORDER BY ordinal_position")) {
      while (rs.next()) {
        result.add(rs.getString(1) + " " + rs.getString(2));
      }
    }
    return result;
  }

  private static boolean tableExists(Statement statement, String table) throws SQLException {
    try (ResultSet rs = statement.executeQuery("SELECT to_regclass('" + table + "')")) {
      rs.next();
      return rs.getString(1) != null;
    }
  }

  private static Object postgresValue(ResultSet rs, int index, String typeName)
      throws SQLException {
    return switch (typeName) {
      case "timestamp" -> {
        LocalDateTime local = rs.getObject(index, LocalDateTime.class);
        yield local == null ? null : local.toInstant(ZoneOffset.UTC);
      }
      case "timestamptz" -> {
        OffsetDateTime offset = rs.getObject(index, OffsetDateTime.class);
        yield offset == null ? null : offset.toInstant();
      }
      case "date" -> rs.getObject(index, LocalDate.class);
      default -> rs.getObject(index);
    };
  }

  private static String format(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.stripTrailingZeros().toPlainString();
    }
    if (value instanceof Instant instant) {
      return Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, instant));
    }
    if (value instanceof String string) {
      return "'" + string + "'";
    }
    if (value instanceof Integer || value instanceof Short) {
      return Long.toString(((Number) value).longValue());
    }
    return value.toString();
  }

  /**
   * Spark's rows of a table of variants and geometries, each line {@code id srid wkb-hex json}, as
   * id → {@link #place}.
   */
  public static Map<Long, String> canonicalShapes(List<String> lines) {
    Map<Long, String> result = new TreeMap<>();
    for (String line : lines) {
      String[] parts = line.split(" ", 4);
      result.put(
          Long.parseLong(parts[0]),
          place(Integer.parseInt(parts[1]), HexFormat.of().parseHex(parts[2]), parts[3]));
    }
    return result;
  }

  /** The same of a PostgreSQL table with {@code doc jsonb} and a PostGIS {@code shape}. */
  public static Map<Long, String> placesOfPostgres(Connection connection, String table)
      throws SQLException {
    Map<Long, String> result = new TreeMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT id, ST_SRID(shape), ST_AsBinary(shape), doc::text FROM " + table)) {
      while (rs.next()) {
        result.put(rs.getLong(1), place(rs.getInt(2), rs.getBytes(3), rs.getString(4)));
      }
    }
    return result;
  }

  /**
   * A place as text that does not depend on how each side spells it: the shape as JTS writes it
   * (WKB byte order aside), the JSON with sorted keys and numbers by value (jsonb reorders keys and
   * keeps numbers as numeric).
   */
  private static String place(int srid, byte[] wkb, String json) {
    try {
      return "srid="
          + srid
          + " shape="
          + new WKBReader().read(wkb).toText()
          + " doc="
          + canonicalJson(JSON.readTree(json));
    } catch (ParseException | IOException e) {
      throw new IllegalArgumentException("Unreadable place " + json, e);
    }
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private static String canonicalJson(JsonNode node) {
    if (node.isObject()) {
      Map<String, String> fields = new TreeMap<>();
      node.fields().forEachRemaining(f -> fields.put(f.getKey(), canonicalJson(f.getValue())));
      return fields.toString();
    }
    if (node.isArray()) {
      List<String> elements = new ArrayList<>();
      node.elements().forEachRemaining(e -> elements.add(canonicalJson(e)));
      return elements.toString();
    }
    if (node.isNumber()) {
      return node.decimalValue().stripTrailingZeros().toPlainString();
    }
    return node.toString();
  }
}
