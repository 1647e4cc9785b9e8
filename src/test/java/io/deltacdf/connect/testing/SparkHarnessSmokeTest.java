package io.deltacdf.connect.testing;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.FieldType.PrimitiveKind;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Spark side of the oracle tests works: workloads run, the oracle reads them, rows compare. */
class SparkHarnessSmokeTest {

  @TempDir static Path dir;

  // 5: DVs, name mapping, unpartitioned, a no-op MERGE; 9: DVs, string partitions, ICT;
  // 27: no DVs, id mapping, string partitions, ICT.
  @ParameterizedTest
  @ValueSource(longs = {5, 9, 27})
  void oracleReadsTheRowsOfARandomWorkload(long seed) {
    RandomWorkload.Description workload = RandomWorkload.run(seed, dir);
    assertEquals(workload.latestVersion(), SparkOracle.latestVersion(workload.path()));

    RandomWorkload.Step firstInsert = workload.steps().get(1);
    Map<Long, List<String>> changes =
        SparkOracle.changesByVersion(workload.path(), 0, workload.latestVersion());
    List<String> inserted = changes.get(firstInsert.version());
    assertNotNull(inserted, workload::toString);
    assertFalse(inserted.isEmpty(), workload::toString);
    assertTrue(inserted.stream().allMatch(row -> row.contains(" insert {")), workload::toString);
  }

  @Test
  void renameAndDropReportsItsSchemaChanges() {
    Path table = dir.resolve("rename-drop");
    assertEquals(List.of(2L, 5L), RandomWorkload.renameAndDrop(table));
    // Spark reads the stretches between schema changes, but not across one.
    List<String> update = SparkOracle.changesByVersion(table.toString(), 2, 4).get(4L);
    assertTrue(update.get(0).contains("full_name=\"bobby\""), update::toString);
    assertThrows(Exception.class, () -> SparkOracle.changesByVersion(table.toString(), 0, 7));
  }

  @Test
  void ourRowAndSparksRowHaveTheSameCanonicalForm() throws Exception {
    String path = dir.resolve("all-types").toString();
    StringBuilder ddl = new StringBuilder("`id` BIGINT");
    List<FieldType.Field> fields = new ArrayList<>(List.of(field("id", PrimitiveKind.LONG)));
    for (ColumnType type : ColumnType.values()) {
      ddl.append(", `c_").append(type.name().toLowerCase()).append("` ").append(type.sql());
      fields.add(new FieldType.Field("c_" + type.name().toLowerCase(), type.fieldType(), true));
    }
    fields.add(field("c_null", PrimitiveKind.INT));
    sql(
        "CREATE TABLE delta.`%s` (%s, `c_null` INT) USING delta "
            + "TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path, ddl);
    sql(
        "INSERT INTO delta.`%s` VALUES (7, true, CAST(-128 AS TINYINT), CAST(32767 AS SMALLINT), -5,"
            + " 9223372036854775807, CAST('NaN' AS FLOAT), CAST('-0.0' AS DOUBLE), CAST('-12345678.9' AS DECIMAL(10,2)),"
            + " CAST('12345678901234567890.123456789012345678' AS DECIMAL(38,18)), 'say \"hi\" \\\\ 😀', X'00FF7F',"
            + " DATE'1582-10-04', TIMESTAMP'0001-01-01 00:00:00.000001', TIMESTAMP_NTZ'1969-12-31 23:59:59.999999',"
            + " named_struct('a', 7, 'b', NULL), array(1, NULL, 3), map('z', 1, 'a', NULL), NULL)",
        path);

    Map<String, Integer> map = new LinkedHashMap<>(); // our order differs from Spark's on purpose
    map.put("a", null);
    map.put("z", 1);
    Object[] values = {
      7L,
      true,
      (byte) -128,
      (short) 32767,
      -5,
      Long.MAX_VALUE,
      Float.NaN,
      -0.0d,
      new BigDecimal("-12345678.90"),
      new BigDecimal("12345678901234567890.123456789012345678"),
      "say \"hi\" \\ 😀",
      new byte[] {0, -1, 127},
      LocalDate.of(1582, 10, 4),
      Instant.parse("0001-01-01T00:00:00.000001Z"),
      LocalDateTime.parse("1969-12-31T23:59:59.999999"),
      new Object[] {7, null},
      Arrays.asList(1, null, 3),
      map,
      null
    };
    // Not in-commit timestamps: Spark's commit time is the commit file's modification time.
    long commitMs =
        Files.getLastModifiedTime(Path.of(path, "_delta_log", String.format("%020d.json", 1)))
            .toMillis();
    FieldType.Struct schema = new FieldType.Struct(fields);

    String ours = CanonicalRows.canonical(ChangeType.INSERT, 1, commitMs, schema, values);
    assertEquals(Map.of(1L, List.of(ours)), SparkOracle.changesByVersion(path, 1, 1));

    values[4] = -5L; // a Long where the INT column needs an Integer
    assertThrows(
        IllegalArgumentException.class,
        () -> CanonicalRows.canonical(ChangeType.INSERT, 1, commitMs, schema, values));
  }

  private static FieldType.Field field(String name, PrimitiveKind kind) {
    return new FieldType.Field(name, new FieldType.Primitive(kind), true);
  }
}
