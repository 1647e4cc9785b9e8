package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.DeltaCdfSourceConnector;
import io.deltacdf.connect.it.ApicurioRegistry.Compatibility;
import io.deltacdf.connect.it.ConfluentAvroDecoder.Decoded;
import io.deltacdf.connect.testing.SparkOracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Avro end to end: a Connect worker with Apicurio's AvroConverter in Confluent's wire format
 * (magic byte + 4-byte id), Apicurio Registry as the registry, and a consumer that knows only
 * plain Apache Avro and the registry's Confluent-compatible API.
 */
class AvroIT {

  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir static Path dir;
  private static ApicurioRegistry registry;
  private static KafkaCluster cluster;
  private static ConfluentAvroDecoder decoder;

  @BeforeAll
  static void start() {
    registry = ApicurioRegistry.start();
    cluster = KafkaCluster.builder().start();
    decoder = new ConfluentAvroDecoder(registry);
  }

  @AfterAll
  static void stop() {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (registry != null) {
        registry.close();
      }
    }
  }

  @Test
  void everyTypeDecodesExactlyAsSparkReadsIt() {
    String path = dir.resolve("all_types").toString();
    sql("CREATE TABLE delta.`%s` (id BIGINT NOT NULL, flag BOOLEAN, tiny TINYINT, small SMALLINT,"
        + " num INT, big BIGINT, ratio FLOAT, dbl DOUBLE, price DECIMAL(10,2),"
        + " amount DECIMAL(38,18), name STRING, payload BINARY, born DATE, created_at TIMESTAMP,"
        + " local_at TIMESTAMP_NTZ,"
        + " address STRUCT<street: STRING, geo: STRUCT<lat: DOUBLE, lon: DOUBLE>>,"
        + " tags ARRAY<STRING>, lines ARRAY<STRUCT<sku: STRING, qty: INT>>,"
        + " attrs MAP<STRING, DECIMAL(10,2)>, by_day MAP<INT, STRING>)"
        + " USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true')", path);
    sql("INSERT INTO delta.`%s` VALUES"
        + " (1, true, 7, 300, 70000, 9000000000, 1.5, 2.25, 12345678.90,"
        + "  12345678901234567890.123456789012345678, 'ann', X'CAFE', DATE'2024-02-29',"
        + "  TIMESTAMP'2024-02-29 13:45:56.789', TIMESTAMP_NTZ'2024-02-29 13:45:56.789',"
        + "  named_struct('street', 'Main St 1', 'geo', named_struct('lat', 52.52, 'lon', 13.405)),"
        + "  array('a', null, 'c'), array(named_struct('sku', 'x-1', 'qty', 2)),"
        + "  map('net', 10.50, 'tax', null), map(1, 'mon', 7, null)),"
        + " (2, null, null, null, null, null, null, null, null, null, null, null, null, null,"
        + "  null, null, null, null, null, null),"
        + " (3, false, -128, -32768, -2147483648, -9223372036854775808, float('NaN'),"
        + "  double('-0.0'), -99999999.99, -99999999999999999999.999999999999999999, 'héllo 日本 😀',"
        + "  X'', DATE'0001-01-01', TIMESTAMP'1969-07-20 20:17:40.123',"
        + "  TIMESTAMP_NTZ'9999-12-31 23:59:59.999', named_struct('street', null, 'geo', null),"
        + "  array(), array(), map(), map())", path);
    sql("UPDATE delta.`%s` SET amount = 0.000000000000000001, born = DATE'1970-01-01' WHERE id = 1", path);
    sql("DELETE FROM delta.`%s` WHERE id = 3", path);
    long latest = SparkOracle.latestVersion(path);
    List<String> expected = new ArrayList<>();
    SparkOracle.changesByVersion(path, 0, latest).values().forEach(expected::addAll);

    String topic = "avro.all_types";
    deploy("all-types", config(path, topic));
    List<ConsumerRecord<byte[], byte[]>> records = read(topic, expected.size());

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

  // ---- helpers ----

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
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", DeltaCdfSourceConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("delta.table.paths", path);
    config.put("topic.template", topic);
    config.put("key.columns", "id");
    config.put("start.mode", "earliest");
    config.put("poll.interval.ms", "200");
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

  private static void deploy(String name, Map<String, String> config) {
    cluster.rest().putConfig(name, config);
    cluster.rest().awaitRunning(name, 1, WAIT);
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int count) {
    List<ConsumerRecord<byte[], byte[]>> records =
        TopicReader.readAll(cluster.bootstrapServers(), topic, count, WAIT, false);
    assertThat(records).as("records on %s", topic).hasSize(count);
    return records;
  }
}
