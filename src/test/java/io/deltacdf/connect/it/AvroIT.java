package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ApicurioRegistry;
import io.deltacdf.connect.it.testing.ApicurioRegistry.Compatibility;
import io.deltacdf.connect.it.testing.AvroRows;
import io.deltacdf.connect.it.testing.ConfluentAvroDecoder;
import io.deltacdf.connect.it.testing.ConfluentAvroDecoder.Decoded;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TestPlugins;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.Closing;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Avro end to end: a Connect worker with Apicurio's AvroConverter in Confluent's wire format (magic
 * byte + 4-byte id), Apicurio Registry as the registry, and a consumer that knows only plain Apache
 * Avro and the registry's Confluent-compatible API.
 */
class AvroIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  /**
   * Column mapping by name (RENAME and DROP COLUMN need it) and type widening, with the change data
   * feed.
   */
  private static final String EVOLVABLE =
      "'delta.enableChangeDataFeed'='true',"
          + " 'delta.columnMapping.mode'='name', 'delta.enableTypeWidening'='true'";

  @TempDir static Path dir;
  private static ApicurioRegistry registry;
  private static KafkaCluster cluster;
  private static ConfluentAvroDecoder decoder;

  @BeforeAll
  static void start() {
    registry = ApicurioRegistry.start();
    cluster = KafkaCluster.builder().pluginFolder(TestPlugins.apicurioConverter()).start();
    decoder = new ConfluentAvroDecoder(registry);
  }

  @AfterAll
  static void stop() {
    Closing.inOrder(cluster, registry);
  }

  @Test
  void everyTypeDecodesExactlyAsSparkReadsIt() {
    String path = dir.resolve("all_types").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT NOT NULL, flag BOOLEAN, tiny TINYINT, small SMALLINT,"
            + " num INT, big BIGINT, ratio FLOAT, dbl DOUBLE, price DECIMAL(10,2),"
            + " amount DECIMAL(38,18), name STRING, payload BINARY, born DATE, created_at TIMESTAMP,"
            + " local_at TIMESTAMP_NTZ,"
            + " address STRUCT<street: STRING, geo: STRUCT<lat: DOUBLE, lon: DOUBLE>>,"
            // A different struct where a naive naming scheme puts address.geo's record name.
            + " address_geo STRUCT<code: STRING>,"
            + " tags ARRAY<STRING>, lines ARRAY<STRUCT<sku: STRING, qty: INT>>,"
            + " attrs MAP<STRING, DECIMAL(10,2)>, by_day MAP<INT, STRING>, doc VARIANT)"
            + " USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql(
        "INSERT INTO delta.`%s` VALUES"
            + " (1, true, 7, 300, 70000, 9000000000, 1.5, 2.25, 12345678.90,"
            + "  12345678901234567890.123456789012345678, 'ann', X'CAFE', DATE'2024-02-29',"
            + "  TIMESTAMP'2024-02-29 13:45:56.789', TIMESTAMP_NTZ'2024-02-29 13:45:56.789',"
            + "  named_struct('street', 'Main St 1', 'geo', named_struct('lat', 52.52, 'lon', 13.405)),"
            + "  named_struct('code', 'DE-BE'),"
            + "  array('a', null, 'c'), array(named_struct('sku', 'x-1', 'qty', 2)),"
            + "  map('net', 10.50, 'tax', null), map(1, 'mon', 7, null),"
            + "  parse_json('{\"b\": [1, 2.50, \"é\"], \"a\": {\"n\": null}}')),"
            + " (2, null, null, null, null, null, null, null, null, null, null, null, null, null,"
            + "  null, null, null, null, null, null, null, null),"
            + " (3, false, -128, -32768, -2147483648, -9223372036854775808, float('NaN'),"
            + "  double('-0.0'), -99999999.99, -99999999999999999999.999999999999999999, 'héllo 日本 😀',"
            + "  X'', DATE'0001-01-01', TIMESTAMP'1969-07-20 20:17:40.123',"
            + "  TIMESTAMP_NTZ'9999-12-31 23:59:59.999', named_struct('street', null, 'geo', null),"
            + "  named_struct('code', null),"
            + "  array(), array(), map(), map(), parse_json('null'))",
        path);
    sql(
        "UPDATE delta.`%s` SET amount = 0.000000000000000001, born = DATE'1970-01-01' WHERE id = 1",
        path);
    sql("DELETE FROM delta.`%s` WHERE id = 3", path);
    long latest = SparkOracle.latestVersion(path);
    List<String> expected = new ArrayList<>();
    SparkOracle.changesByVersion(path, 0, latest).values().forEach(expected::addAll);

    String topic = "avro.all_types";
    cluster.rest().deploy("all-types", config(path, topic), WAIT);
    // Plus the tombstone that follows the delete of row 3.
    List<ConsumerRecord<byte[], byte[]>> records = rows(read(topic, expected.size() + 1));

    List<String> got = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      Decoded value = decoder.decode(record.value());
      Decoded key = decoder.decode(record.key());
      assertThat(key.record().get("id")).isEqualTo(value.record().get("id"));
      got.add(AvroRows.canonical(record, value.record()));
    }
    assertThat(got).containsExactlyInAnyOrderElementsOf(expected);

    Schema value = decoder.decode(records.get(0).value()).schema();
    assertThat(value.getField("id").schema().getType()).isEqualTo(Schema.Type.LONG);
    assertThat(value.getField("id").defaultVal()).isNull();
    assertDecimal(value, "price", 10, 2);
    assertDecimal(value, "amount", 38, 18);
    assertThat(nullable(value, "born").getLogicalType()).isEqualTo(LogicalTypes.date());
    assertThat(nullable(value, "created_at").getLogicalType())
        .isEqualTo(LogicalTypes.timestampMillis());
    assertThat(nullable(value, "local_at").getLogicalType())
        .isEqualTo(LogicalTypes.timestampMillis());
    assertThat(nullable(value, "attrs").getType()).isEqualTo(Schema.Type.MAP);
    assertThat(nullable(value, "doc").getType()).isEqualTo(Schema.Type.STRING);
    assertThat(nullable(value, "doc").getProp("connect.name")).isEqualTo("io.debezium.data.Json");
    assertThat(nullable(value, "by_day").getElementType().getFullName())
        .isEqualTo("io.confluent.connect.avro.MapEntry");
    for (Schema.Field field : value.getFields().subList(1, value.getFields().size())) {
      // An optional field must default to null, or adding one is not BACKWARD compatible.
      assertThat(field.hasDefaultValue()).as(field.name()).isTrue();
      assertThat(field.defaultVal()).as(field.name()).isEqualTo(JsonProperties.NULL_VALUE);
    }
    assertThat(registry.versions(topic + "-value")).containsExactly(1);
    assertThat(registry.versions(topic + "-key")).containsExactly(1);
  }

  /**
   * Geometry and geography columns (Spark's geospatial preview) reach the registry as Debezium's
   * shape records: the WKB Spark stores and the SRID of the column's reference system.
   */
  @Test
  void shapesAreDebeziumGeometryRecords() {
    String path = dir.resolve("shapes").toString();
    String point = "0101000000000000000000F03F0000000000000040"; // POINT(1 2), little-endian
    sql("SET spark.databricks.delta.geo.preview.enabled = true");
    try {
      sql(
          "CREATE TABLE delta.`%s` (id BIGINT NOT NULL, shape GEOMETRY(4326), plane GEOMETRY(0),"
              + " place GEOGRAPHY(4326)) USING delta"
              + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
          path);
      sql(
          "INSERT INTO delta.`%s` VALUES (1, st_geomfromwkb(X'%s', 4326),"
              + " st_geomfromwkb(X'%s', 0), st_geogfromwkb(X'%s')), (2, NULL, NULL, NULL)",
          path, point, point, point);
    } finally {
      sql("RESET spark.databricks.delta.geo.preview.enabled");
    }

    String topic = "avro.shapes";
    cluster.rest().deploy("shapes", config(path, topic), WAIT);
    List<ConsumerRecord<byte[], byte[]>> records = read(topic, 2);

    List<Decoded> decoded =
        records.stream()
            .map(r -> decoder.decode(r.value()))
            .sorted(java.util.Comparator.comparing(d -> (Long) d.record().get("id")))
            .toList();
    Decoded first = decoded.get(0);
    Schema shape = nullable(first.schema(), "shape");
    assertThat(shape.getProp("connect.name")).isEqualTo("io.debezium.data.geometry.Geometry");
    assertThat(nullable(first.schema(), "place").getProp("connect.name"))
        .isEqualTo("io.debezium.data.geometry.Geography");
    assertThat(shape.getField("wkb").schema().getType()).isEqualTo(Schema.Type.BYTES);
    assertThat(shape.getField("srid").schema().getType()).isEqualTo(Schema.Type.UNION);
    for (String column : List.of("shape", "plane", "place")) {
      GenericRecord value = (GenericRecord) first.record().get(column);
      ByteBuffer wkb = (ByteBuffer) value.get("wkb");
      byte[] bytes = new byte[wkb.remaining()];
      wkb.get(bytes);
      assertThat(HexFormat.of().withUpperCase().formatHex(bytes)).as(column).isEqualTo(point);
      assertThat(value.get("srid")).as(column).isEqualTo(column.equals("plane") ? 0 : 4326);
    }
    assertThat(decoded.get(1).record().get("shape")).isNull();
  }

  /**
   * ADD, RENAME and DROP COLUMN under column mapping and two type widenings, through the live
   * connector, with BACKWARD compatibility on the subject: Avro sees a rename as a drop plus an
   * add, and int→long and float→double are Avro promotions, so the registry accepts every version
   * and the task keeps running.
   */
  @Test
  void compatibleSchemaChangesStreamOnUnderBackward() {
    String path = dir.resolve("evolving").toString();
    String topic = "avro.evolving";
    registry.setCompatibility(topic + "-key", Compatibility.BACKWARD);
    registry.setCompatibility(topic + "-value", Compatibility.BACKWARD);
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT NOT NULL, name STRING, qty INT, score FLOAT,"
            + " note STRING) USING delta TBLPROPERTIES (%s)",
        path, EVOLVABLE);
    sql("INSERT INTO delta.`%s` VALUES (1, 'ann', 1, 1.5, 'first')", path);
    cluster.rest().deploy("evolving", config(path, topic), WAIT);
    // Each change lands while the task streams: it has sent the previous schema's records.
    read(topic, 1);
    sql("ALTER TABLE delta.`%s` ADD COLUMNS (city STRING)", path);
    sql("INSERT INTO delta.`%s` VALUES (2, 'bob', 2, 2.5, 'second', 'Oslo')", path);
    read(topic, 2);
    sql("ALTER TABLE delta.`%s` RENAME COLUMN note TO remark", path);
    sql("INSERT INTO delta.`%s` VALUES (3, 'cy', 3, 3.5, 'third', 'Rome')", path);
    read(topic, 3);
    sql("ALTER TABLE delta.`%s` DROP COLUMN name", path);
    sql("INSERT INTO delta.`%s` VALUES (4, 4, 4.5, 'fourth', 'Lima')", path);
    read(topic, 4);
    sql("ALTER TABLE delta.`%s` ALTER COLUMN qty TYPE BIGINT", path);
    sql("INSERT INTO delta.`%s` VALUES (5, 5000000000, 5.5, 'fifth', 'Kyiv')", path);
    read(topic, 5);
    sql("ALTER TABLE delta.`%s` ALTER COLUMN score TYPE DOUBLE", path);
    sql("INSERT INTO delta.`%s` VALUES (6, 6, 6.25, 'sixth', 'Pune')", path);
    // Row 1's file still stores qty as INT and score as FLOAT: its delete is read widened.
    sql("DELETE FROM delta.`%s` WHERE id = 1", path);

    List<ConsumerRecord<byte[], byte[]>> records = rows(read(topic, 8));
    cluster.rest().awaitRunning("evolving", 1, WAIT);
    List<String> got = records.stream().map(AvroIT::describe).toList();
    long distinctSchemaIds =
        records.stream().map(r -> decoder.decode(r.value()).schemaId()).distinct().count();
    String a = "id long, name string?, qty int?, score float?, note string?";
    String b = "id long, name string?, qty int?, score float?, note string?, city string?";
    String c = "id long, name string?, qty int?, score float?, remark string?, city string?";
    String d = "id long, qty int?, score float?, remark string?, city string?";
    String e = "id long, qty long?, score float?, remark string?, city string?";
    String f = "id long, qty long?, score double?, remark string?, city string?";
    assertThat(got)
        .containsExactly(
            a + " | insert {id=1, name=\"ann\", qty=1, score=1.5, note=\"first\"}",
            b + " | insert {id=2, name=\"bob\", qty=2, score=2.5, note=\"second\", city=\"Oslo\"}",
            c + " | insert {id=3, name=\"cy\", qty=3, score=3.5, remark=\"third\", city=\"Rome\"}",
            d + " | insert {id=4, qty=4, score=4.5, remark=\"fourth\", city=\"Lima\"}",
            e + " | insert {id=5, qty=5000000000, score=5.5, remark=\"fifth\", city=\"Kyiv\"}",
            f + " | insert {id=6, qty=6, score=6.25, remark=\"sixth\", city=\"Pune\"}",
            f + " | delete {id=1, qty=1, score=1.5, remark=\"first\", city=null}");
    assertThat(registry.versions(topic + "-value")).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(registry.versions(topic + "-key")).containsExactly(1);
    assertThat(distinctSchemaIds).isEqualTo(6);

    // What BACKWARD promises: the newest schema reads every older record. Avro knows no
    // renames, so to it the old "note" values are gone and "remark" takes its default.
    Schema latest = new Schema.Parser().parse(registry.schema(topic + "-value", 6));
    List<String> underLatest =
        records.stream()
            .map(r -> AvroRows.change(r, decoder.decode(r.value(), latest).record()))
            .toList();
    assertThat(underLatest)
        .containsExactly(
            "insert {id=1, qty=1, score=1.5, remark=null, city=null}",
            "insert {id=2, qty=2, score=2.5, remark=null, city=\"Oslo\"}",
            "insert {id=3, qty=3, score=3.5, remark=\"third\", city=\"Rome\"}",
            "insert {id=4, qty=4, score=4.5, remark=\"fourth\", city=\"Lima\"}",
            "insert {id=5, qty=5000000000, score=5.5, remark=\"fifth\", city=\"Kyiv\"}",
            "insert {id=6, qty=6, score=6.25, remark=\"sixth\", city=\"Pune\"}",
            "delete {id=1, qty=1, score=1.5, remark=\"first\", city=null}");
  }

  /**
   * Two Delta changes Avro cannot read backward: renaming a NOT NULL column (the new required field
   * has no default) and widening INT to DECIMAL (int to bytes). Under BACKWARD the registry rejects
   * the new schema and the task fails naming it; under NONE the stream goes on, and a failed task
   * goes on once its subject is set to NONE and the task restarted.
   */
  @Test
  void incompatibleSchemaChangesFailUnderBackwardAndStreamUnderNone() {
    String path = dir.resolve("strict").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT NOT NULL, code INT NOT NULL, amount INT)"
            + " USING delta TBLPROPERTIES (%s)",
        path, EVOLVABLE);
    sql("INSERT INTO delta.`%s` VALUES (1, 10, 100)", path);
    sql("ALTER TABLE delta.`%s` RENAME COLUMN code TO label", path);
    sql("INSERT INTO delta.`%s` VALUES (2, 20, 200)", path);
    long afterRename = SparkOracle.latestVersion(path);
    sql("ALTER TABLE delta.`%s` ALTER COLUMN amount TYPE DECIMAL(12,2)", path);
    sql("INSERT INTO delta.`%s` VALUES (3, 30, 300.25)", path);

    // avro.strict.none-value keeps the registry's default, NONE.
    registry.setCompatibility("avro.strict.rename-value", Compatibility.BACKWARD);
    registry.setCompatibility("avro.strict.decimal-value", Compatibility.BACKWARD);
    cluster.rest().deploy("strict-none", config(path, "avro.strict.none"), WAIT);
    cluster.rest().putConfig("strict-rename", config(path, "avro.strict.rename"));
    Map<String, String> decimal = config(path, "avro.strict.decimal");
    decimal.put("start.mode", "version");
    decimal.put("start.version", Long.toString(afterRename));
    cluster.rest().putConfig("strict-decimal", decimal);

    assertThat(read("avro.strict.none", 3))
        .map(AvroIT::describe)
        .containsExactly(
            "id long, code int, amount int? | insert {id=1, code=10, amount=100}",
            "id long, label int, amount int? | insert {id=2, label=20, amount=200}",
            "id long, label int, amount decimal(12,2)? | insert {id=3, label=30, amount=300.25}");
    assertThat(registry.versions("avro.strict.none-value")).containsExactly(1, 2, 3);
    cluster.rest().awaitRunning("strict-none", 1, WAIT);

    assertThat(cluster.rest().awaitTaskFailed("strict-rename", WAIT))
        .contains("Incompatible artifact: avro.strict.rename-value");
    assertThat(registry.versions("avro.strict.rename-value")).containsExactly(1);
    assertThat(cluster.rest().awaitTaskFailed("strict-decimal", WAIT))
        .contains("Incompatible artifact: avro.strict.decimal-value");
    assertThat(registry.versions("avro.strict.decimal-value")).containsExactly(1);

    // The way out: let the subject take the change, then restart the task. It resumes from its
    // last stored offset; nothing is skipped.
    registry.setCompatibility("avro.strict.rename-value", Compatibility.NONE);
    assertThat(cluster.rest().post("/connectors/strict-rename/tasks/0/restart").ok()).isTrue();
    Set<Object> ids = new HashSet<>();
    TopicReader.readUntil(
        cluster.bootstrapServers(),
        "avro.strict.rename",
        batch -> {
          batch.forEach(r -> ids.add(decoder.decode(r.value()).record().get("id")));
          return ids.size() == 3;
        },
        Duration.ofSeconds(1),
        WAIT,
        false);
    assertThat(ids).containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(registry.versions("avro.strict.rename-value")).containsExactly(1, 2, 3);
    cluster.rest().awaitRunning("strict-rename", 1, WAIT);
  }

  /**
   * Two widenings the registry accepts under BACKWARD because Avro's rules ignore logical types,
   * though a consumer that reads old records with the new schema gets wrong values: DATE to
   * TIMESTAMP_NTZ (an int of days promoted to a long of milliseconds) and a decimal scale increase
   * (the old unscaled bytes read at the new scale). Each record still carries its own writer
   * schema, with which it decodes correctly.
   */
  @Test
  void wideningsTheRegistryAcceptsButOldRecordsMisreadUnderTheNewSchema() {
    String path = dir.resolve("widened").toString();
    String topic = "avro.widened";
    registry.setCompatibility(topic + "-value", Compatibility.BACKWARD);
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT NOT NULL, day DATE, price DECIMAL(10,2))"
            + " USING delta TBLPROPERTIES (%s, 'delta.feature.timestampNtz'='supported')",
        path, EVOLVABLE);
    sql("INSERT INTO delta.`%s` VALUES (1, DATE'2024-02-29', 12.34)", path);
    sql("ALTER TABLE delta.`%s` ALTER COLUMN day TYPE TIMESTAMP_NTZ", path);
    sql("ALTER TABLE delta.`%s` ALTER COLUMN price TYPE DECIMAL(12,4)", path);
    sql("INSERT INTO delta.`%s` VALUES (2, TIMESTAMP_NTZ'2024-03-01 10:00:00', 56.78)", path);
    cluster.rest().deploy("widened", config(path, topic), WAIT);

    List<ConsumerRecord<byte[], byte[]>> records = read(topic, 2);
    assertThat(records)
        .map(AvroIT::describe)
        .containsExactly(
            "id long, day date?, price decimal(10,2)? | insert {id=1, day=2024-02-29, price=12.34}",
            "id long, day timestamp-millis?, price decimal(12,4)?"
                + " | insert {id=2, day=1709287200000000us, price=56.7800}");
    assertThat(registry.versions(topic + "-value")).containsExactly(1, 2);
    cluster.rest().awaitRunning("widened", 1, WAIT);

    Schema latest = new Schema.Parser().parse(registry.schema(topic + "-value", 2));
    // 2024-02-29 is day 19782: read as 19782 ms. 12.34 is unscaled 1234: read at scale 4.
    assertThat(
            AvroRows.change(
                records.get(0), decoder.decode(records.get(0).value(), latest).record()))
        .isEqualTo("insert {id=1, day=19782000us, price=0.1234}");
  }

  /**
   * Both timestamp modes through Avro: milliseconds as timestamp-millis (Delta's microseconds
   * truncated toward the past), and temporal.precision.mode=microseconds as a plain long of epoch
   * microseconds (named io.debezium.time.MicroTimestamp), equal to Spark's values.
   */
  @Test
  void timestampsInMillisecondsOrLosslessMicroseconds() {
    String path = dir.resolve("moments").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT NOT NULL, at TIMESTAMP, local_at TIMESTAMP_NTZ)"
            + " USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql(
        "INSERT INTO delta.`%s` VALUES"
            + " (1, TIMESTAMP'2024-02-29 13:45:56.789123', TIMESTAMP_NTZ'2024-02-29 13:45:56.789123'),"
            + " (2, TIMESTAMP'1969-12-31 23:59:59.999999', TIMESTAMP_NTZ'1969-12-31 23:59:59.999999')",
        path);
    cluster.rest().deploy("moments-ms", config(path, "avro.moments.ms"), WAIT);
    Map<String, String> micros = config(path, "avro.moments.us");
    micros.put("temporal.precision.mode", "microseconds");
    cluster.rest().deploy("moments-us", micros, WAIT);

    String millis = "id long, at timestamp-millis?, local_at timestamp-millis?";
    assertThat(read("avro.moments.ms", 2))
        .map(AvroIT::describe)
        .containsExactly(
            millis + " | insert {id=1, at=1709214356789000us, local_at=1709214356789000us}",
            millis + " | insert {id=2, at=-1000us, local_at=-1000us}");
    List<ConsumerRecord<byte[], byte[]>> exact = read("avro.moments.us", 2);
    assertThat(exact)
        .map(AvroIT::describe)
        .allMatch(d -> d.startsWith("id long, at long?, local_at long? | "));
    List<String> expected = new ArrayList<>();
    SparkOracle.changesByVersion(path, 0, SparkOracle.latestVersion(path))
        .values()
        .forEach(expected::addAll);
    assertThat(exact)
        .map(r -> AvroRows.canonical(r, decoder.decode(r.value()).record()))
        .containsExactlyInAnyOrderElementsOf(expected)
        .anyMatch(row -> row.contains("at=1709214356789123us"));
  }

  /**
   * Column mapping allows any column name; Avro accepts only [A-Za-z0-9_]. With
   * field.name.adjustment=avro the registry takes the schema and the rows decode under the adjusted
   * names (key included); without it the converter refuses the schema.
   */
  @Test
  void columnNamesAvroRejectsNeedFieldNameAdjustment() {
    String path = dir.resolve("names").toString();
    sql(
        "CREATE TABLE delta.`%s` (`order id` BIGINT NOT NULL, `prix-€` DECIMAL(10,2),"
            + " `1st.name` STRING, `adresse é` STRUCT<`zip code`: STRING>)"
            + " USING delta TBLPROPERTIES (%s)",
        path, EVOLVABLE);
    sql("INSERT INTO delta.`%s` VALUES (7, 9.99, 'ann', named_struct('zip code', '0150'))", path);
    Map<String, String> adjusted = config(path, "avro.names.adjusted");
    adjusted.put("key.columns", "order id");
    adjusted.put("field.name.adjustment", "avro");
    cluster.rest().deploy("names-adjusted", adjusted, WAIT);
    Map<String, String> verbatim = config(path, "avro.names.verbatim");
    verbatim.put("key.columns", "order id");
    cluster.rest().putConfig("names-verbatim", verbatim);

    ConsumerRecord<byte[], byte[]> record = read("avro.names.adjusted", 1).get(0);
    assertThat(describe(record))
        .isEqualTo(
            "order_id long, prix__ decimal(10,2)?, _1st_name string?, adresse__ record?"
                + " | insert {order_id=7, prix__=9.99, _1st_name=\"ann\", adresse__={zip_code=\"0150\"}}");
    assertThat(AvroRows.struct(decoder.decode(record.key()).record())).isEqualTo("{order_id=7}");
    assertThat(cluster.rest().awaitTaskFailed("names-verbatim", WAIT))
        .contains("Illegal character in: order id");
  }

  /**
   * record.format=envelope through Avro: Debezium's envelope (before, after, source, op) whose
   * before and after share one row record, an update as one 'u' event.
   */
  @Test
  void debeziumEnvelopeDecodesFromAvro() {
    String path = dir.resolve("enveloped").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT NOT NULL, name STRING, price DECIMAL(10,2),"
            + " address STRUCT<city: STRING>)"
            + " USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql(
        "INSERT INTO delta.`%s` VALUES (1, 'ann', 1.50, named_struct('city', 'Oslo')),"
            + " (2, 'bob', null, null)",
        path);
    sql("UPDATE delta.`%s` SET price = 2.75 WHERE id = 1", path);
    sql("DELETE FROM delta.`%s` WHERE id = 2", path);
    Map<String, String> config = config(path, "avro.enveloped");
    config.put("record.format", "envelope");
    cluster.rest().deploy("enveloped", config, WAIT);

    // Plus the tombstone that follows the delete.
    List<ConsumerRecord<byte[], byte[]>> records = rows(read("avro.enveloped", 5));
    List<String> events = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      Decoded value = decoder.decode(record.value());
      GenericRecord envelope = value.record();
      assertThat(value.schema().getFullName()).isEqualTo("io.deltacdf.enveloped.Envelope");
      assertThat(nullable(value.schema(), "after").getFullName())
          .isEqualTo("io.deltacdf.enveloped.Value");
      GenericRecord source = (GenericRecord) envelope.get("source");
      assertThat(source.getSchema().getFullName()).isEqualTo("io.deltacdf.connect.Source");
      events.add(
          envelope.get("op")
              + " v"
              + source.get("commit_version")
              + " before="
              + struct(envelope.get("before"))
              + " after="
              + struct(envelope.get("after")));
    }
    String ann = "{id=1, name=\"ann\", price=1.50, address={city=\"Oslo\"}}";
    String bob = "{id=2, name=\"bob\", price=null, address=null}";
    assertThat(events)
        .containsExactly(
            "c v1 before=null after=" + ann,
            "c v1 before=null after=" + bob,
            "u v2 before=" + ann + " after=" + ann.replace("1.50", "2.75"),
            "d v3 before=" + bob + " after=null");
  }

  // ---- helpers ----

  /**
   * The records without their tombstones, checking that each tombstone directly follows a delete
   * with the same key.
   */
  private static List<ConsumerRecord<byte[], byte[]>> rows(
      List<ConsumerRecord<byte[], byte[]>> records) {
    List<ConsumerRecord<byte[], byte[]>> rows = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      ConsumerRecord<byte[], byte[]> record = records.get(i);
      if (record.value() != null) {
        rows.add(record);
        continue;
      }
      assertThat(i).as("a tombstone first").isPositive();
      ConsumerRecord<byte[], byte[]> delete = records.get(i - 1);
      assertThat(TopicReader.header(delete, "_change_type")).isEqualTo("delete");
      assertThat(record.key()).isEqualTo(delete.key());
    }
    return rows;
  }

  /** A record decoded with its own writer schema: {@code <signature> | <change>}. */
  private static String describe(ConsumerRecord<byte[], byte[]> record) {
    Decoded value = decoder.decode(record.value());
    return signature(value.schema()) + " | " + AvroRows.change(record, value.record());
  }

  private static String struct(Object record) {
    return record == null ? "null" : AvroRows.struct((GenericRecord) record);
  }

  /** A record schema's fields as {@code name type} ({@code ?} when nullable), in order. */
  private static String signature(Schema record) {
    return record.getFields().stream()
        .map(field -> field.name() + " " + typeName(field.schema()))
        .collect(Collectors.joining(", "));
  }

  private static String typeName(Schema schema) {
    if (schema.getType() == Schema.Type.UNION) {
      return typeName(schema.getTypes().get(1)) + "?";
    }
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal decimal) {
      return "decimal(" + decimal.getPrecision() + "," + decimal.getScale() + ")";
    }
    return schema.getLogicalType() != null
        ? schema.getLogicalType().getName()
        : schema.getType().getName();
  }

  private static void assertDecimal(Schema record, String field, int precision, int scale) {
    Schema decimal = nullable(record, field);
    assertThat(decimal.getType()).isEqualTo(Schema.Type.BYTES);
    assertThat(decimal.getLogicalType()).isEqualTo(LogicalTypes.decimal(precision, scale));
  }

  /** The non-null branch of a nullable field's {@code ["null", T]} union. */
  private static Schema nullable(Schema record, String field) {
    Schema union = record.getField(field).schema();
    assertThat(union.getType()).as(field).isEqualTo(Schema.Type.UNION);
    assertThat(union.getTypes().get(0).getType()).as(field).isEqualTo(Schema.Type.NULL);
    return union.getTypes().get(1);
  }

  private static Map<String, String> config(String path, String topic) {
    Map<String, String> config =
        ConnectorConfig.forTables(path)
            .topicTemplate(topic)
            .keyColumns("id")
            .startMode("earliest")
            .pollIntervalMs(200)
            .build();
    for (String side : List.of("key", "value")) {
      String prefix = side + ".converter";
      config.put(prefix, "io.apicurio.registry.utils.converter.AvroConverter");
      config.put(prefix + ".apicurio.registry.url", registry.converterUrl());
      config.put(prefix + ".apicurio.registry.auto-register", "true");
      // Confluent's wire format: magic byte + 4-byte id in the payload, no id headers.
      config.put(prefix + ".apicurio.registry.as-confluent", "true");
      config.put(prefix + ".apicurio.registry.use-id", "contentId");
      config.put(prefix + ".apicurio.registry.headers.enabled", "false");
    }
    return config;
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    return TopicReader.readExactly(cluster.bootstrapServers(), topic, count, WAIT);
  }
}
