package io.deltacdf.connect.delta.variant;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.testing.FeedReads;
import io.deltacdf.connect.delta.testing.ParquetSchemas;
import io.deltacdf.connect.delta.variant.testing.RandomJson;
import io.deltacdf.connect.testing.SparkHarness;
import io.deltacdf.connect.testing.SparkOracle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Variant columns (top level, in a struct, in an array) stream row-exact against Spark's {@code
 * table_changes}: random documents inserted, updated, deleted and merged, with and without column
 * mapping and deletion vectors, and shredded by Spark into typed columns (objects of mostly stable
 * shape, partly shredded: fields of varying type and rare fields stay in the leftover value).
 * {@code -Dvariant.rows=2000} runs a larger table.
 */
class VariantFeedTest {

  private static final int ROWS = Integer.getInteger("variant.rows", 60);

  @TempDir Path dir;

  /**
   * A data file written by another writer whose variant's offsets all point at one child: the read
   * fails naming the table, the version and the file, and the worker keeps its memory. Spark cannot
   * write such bytes, so the file is Spark's struct of the two binaries (the same Parquet layout as
   * a variant) put in place of a variant table's file.
   */
  @Test
  void aHostileVariantFailsNamingTheFile() throws IOException {
    String path = dir.resolve("hostile").toString();
    sql(
        "CREATE TABLE delta.`%s` (id INT, v VARIANT) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        path);
    sql("INSERT INTO delta.`%s` VALUES (1, parse_json('[null]'))", path);
    String struct = dir.resolve("struct").toString();
    sql(
        "CREATE TABLE delta.`%s` (id INT, v STRUCT<value: BINARY, metadata: BINARY>) USING delta",
        struct);
    sql(
        "INSERT INTO delta.`%s` SELECT 1, named_struct('value', unhex('%s'), 'metadata',"
            + " unhex('010000'))",
        struct, HexFormat.of().formatHex(sharedChildren()));
    Path hostileFile;
    try (var files = Files.list(Path.of(struct))) {
      hostileFile = files.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    // Version 1's file of the variant table now holds the hostile bytes, with the size the log
    // says.
    Path commit = Path.of(path, "_delta_log", "00000000000000000001.json");
    String log = Files.readString(commit);
    Matcher add = Pattern.compile("\"path\":\"([^\"]+)\",.*?\"size\":(\\d+)").matcher(log);
    assertThat(add.find()).isTrue();
    String fileName = add.group(1);
    Files.copy(hostileFile, Path.of(path, fileName), StandardCopyOption.REPLACE_EXISTING);
    // Hadoop's local checksums of the two files no longer match: a copy has none.
    Files.delete(Path.of(path, "." + fileName + ".crc"));
    Files.delete(Path.of(path, "_delta_log", ".00000000000000000001.json.crc"));
    Files.writeString(
        commit, log.replace("\"size\":" + add.group(2), "\"size\":" + Files.size(hostileFile)));

    try (DeltaTable table = DeltaTable.open(path, Map.of(), false)) {
      assertThatThrownBy(() -> FeedReads.readAll(table, ChangePosition.InVersion.start(1), 10))
          .isInstanceOf(DeltaFeedException.class)
          .hasMessageContaining("version 1")
          .hasMessageContaining(fileName)
          .hasMessageContaining("Malformed variant value")
          .hasMessageContaining("share bytes");
    }
  }

  /** Four levels of 255 array elements all pointing at one child: 255^4 nulls if decoded. */
  private static byte[] sharedChildren() {
    byte[] value = {0};
    for (int level = 0; level < 4; level++) {
      ByteBuffer array =
          ByteBuffer.allocate(1 + 4 + 256 * 4 + value.length).order(ByteOrder.LITTLE_ENDIAN);
      array.put((byte) (((0x4 | 3) << 2) | 3)).putInt(255);
      for (int i = 0; i < 255; i++) {
        array.putInt(0);
      }
      array.putInt(value.length).put(value);
      value = array.array();
    }
    return value;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"plain", "column mapping and deletion vectors", "shredded"})
  void variantChangesMatchSpark(String layout) {
    String path = dir.resolve("variant").toString();
    boolean shredded = layout.equals("shredded");
    String properties =
        switch (layout) {
          case "plain" ->
              "'delta.enableChangeDataFeed' = 'true', 'delta.enableDeletionVectors' = 'false'";
          case "shredded" ->
              "'delta.enableChangeDataFeed' = 'true', 'delta.enableVariantShredding' = 'true'";
          default ->
              "'delta.enableChangeDataFeed' = 'true', 'delta.enableDeletionVectors' = 'true',"
                  + " 'delta.columnMapping.mode' = 'name'";
        };
    sql(
        "CREATE TABLE delta.`%s` (id INT, v VARIANT, s STRUCT<w: VARIANT, n: INT>,"
            + " a ARRAY<VARIANT>) USING delta TBLPROPERTIES (%s)",
        path, properties);
    RandomJson random = new RandomJson(Long.getLong("variant.seed", 4242L));
    documents(random, 0, ROWS, shredded).createOrReplaceTempView("docs");
    sql(
        "INSERT INTO delta.`%s` SELECT id, parse_json(doc),"
            + " IF(id %% 7 = 0, NULL, named_struct('w', parse_json(other), 'n', id)),"
            + " array(parse_json(other), CAST(NULL AS VARIANT), parse_json(doc))"
            + " FROM docs",
        path);
    sql(
        "INSERT INTO delta.`%s` VALUES (-1, NULL, NULL, NULL), (-2, parse_json('null'), NULL, array())",
        path);
    documents(random, 0, ROWS, shredded).createOrReplaceTempView("updates");
    sql(
        "UPDATE delta.`%s` SET v = parse_json((SELECT doc FROM updates u WHERE u.id = 3))"
            + " WHERE id %% 3 = 0",
        path);
    sql("DELETE FROM delta.`%s` WHERE id %% 5 = 1", path);
    sql(
        "MERGE INTO delta.`%s` t USING updates u ON t.id = u.id AND u.id %% 4 = 0"
            + " WHEN MATCHED THEN UPDATE SET t.s = named_struct('w', parse_json(u.other), 'n', 0)",
        path);

    if (shredded) {
      assertThat(ParquetSchemas.dataAndCdcFiles(Path.of(path)))
          .as("Spark shredded the variants into typed columns, in data and cdc files")
          .anyMatch(schema -> schema.contains("typed_value") && schema.contains("_change_type"))
          .anyMatch(schema -> schema.contains("typed_value") && !schema.contains("_change_type"));
    }
    long latest = SparkOracle.latestVersion(path);
    Map<Long, List<String>> expected = SparkOracle.changesByVersion(path, 0, latest);
    DeltaTable table = DeltaTable.open(path, Map.of(), false);
    Map<Long, List<String>> actual =
        FeedReads.byVersion(
            FeedReads.readAll(table, ChangePosition.InVersion.start(0), 100),
            FeedReads.schemaAt(table, latest));
    assertThat(expected.values().stream().flatMap(List::stream))
        .as("Spark's feed holds variant objects, SQL NULLs and JSON nulls")
        .anyMatch(row -> row.contains("v=json {"))
        .anyMatch(row -> row.contains("v=null"))
        .anyMatch(row -> row.contains("v=json null"));
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    for (long version = 0; version <= latest; version++) {
      assertThat(actual.getOrDefault(version, List.of()))
          .as("version %d (%s)", version, layout)
          .isEqualTo(expected.getOrDefault(version, List.of()));
    }
  }

  /** Random documents; records of mostly stable shape where the writer is to shred them. */
  private static org.apache.spark.sql.Dataset<Row> documents(
      RandomJson random, int from, int to, boolean records) {
    List<Row> rows = new ArrayList<>();
    for (int id = from; id < to; id++) {
      rows.add(
          records
              ? RowFactory.create(id, random.record(id), random.record(-id))
              : RowFactory.create(id, random.value(4), random.value(2)));
    }
    StructType schema =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("doc", DataTypes.StringType)
            .add("other", DataTypes.StringType);
    return SparkHarness.spark().createDataFrame(rows, schema);
  }
}
