package io.deltacdf.connect.it.sink;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.delta.variant.testing.RandomJson;
import io.deltacdf.connect.it.sink.testing.MirrorRows;
import io.deltacdf.connect.it.sink.testing.PostgresServer;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.ExternalKafka;
import io.deltacdf.connect.testing.Closing;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.SparkHarness;
import io.deltacdf.connect.testing.TestSupport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

/**
 * A Spark-written Delta table mirrored into PostgreSQL as docs/sinks.md describes: our connector
 * (packaged plugin) and Debezium's JDBC sink (its plugin archive, unpacked by the build into
 * target/sink-plugins/) in one plain Kafka Connect worker with plugin isolation, configured with
 * config-examples/postgres-{source,sink}-{envelope,row}.json as written (only paths, topics and the
 * database address replaced). Both formats read the same table, each into its own topic and
 * PostgreSQL table; after each phase both tables equal Spark's snapshot of the Delta table, row for
 * row and column for column, except where the row format cannot follow a key change (the documented
 * behaviour: the old key's row stays).
 *
 * <p>CI size: {@value #CI_ROWS} snapshot rows and a {@value #CI_LARGE_VERSION}-row version for the
 * crash. {@code -Dsink.full=true} uses 50,000 and 300,000.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresMirrorIT {

  private static final int CI_ROWS = 3_000;
  private static final int CI_LARGE_VERSION = 25_000;
  private static final boolean FULL = Boolean.getBoolean("sink.full");
  private static final int ROWS = FULL ? 50_000 : CI_ROWS;
  private static final int LARGE_VERSION = FULL ? 300_000 : CI_LARGE_VERSION;
  private static final Duration CONVERGE = Duration.ofSeconds(FULL ? 600 : 150);

  private static final String ENVELOPE = "customers_envelope";
  private static final String ROWS_TABLE = "customers_rows";
  private static final List<String> COLUMNS =
      List.of("id", "name", "amount", "updated_at", "day", "active");
  private static final List<String> COLUMNS_WITH_NOTE = concat(COLUMNS, "note");

  @TempDir static Path lake;

  private static PostgresServer postgres;
  private static ExternalKafka kafka;
  private static ConnectRest rest;
  private static Connection db;
  private static String table;

  /** Rows the row format leaves behind for keys that an update changed (phase 3 on). */
  private static List<Row> staleRowsOfChangedKeys = List.of();

  @BeforeAll
  static void start() throws SQLException {
    postgres = PostgresServer.start();
    db = postgres.connect();
    Path sinkPlugins = ExternalKafka.repoRoot().resolve("target/sink-plugins");
    assertThat(sinkPlugins.resolve("debezium-connector-jdbc"))
        .as("Debezium's JDBC sink plugin, unpacked by 'mvn test-compile' (not with -DskipTests)")
        .isDirectory();
    kafka =
        ExternalKafka.start(
            Map.of(
                "plugin.path",
                ExternalKafka.repoRoot().resolve("connector") + "," + sinkPlugins,
                "exactly.once.source.support",
                "enabled"));
    rest = new ConnectRest(kafka.connectUrl());
    table = lake.resolve("customers").toString();
  }

  @AfterAll
  static void stop() {
    Closing.inOrder(db, kafka, postgres);
  }

  @Test
  @Order(1)
  void snapshotOfTheTableArrivesWhole() throws Exception {
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING, amount DECIMAL(12,2),"
            + " updated_at TIMESTAMP, day DATE, active BOOLEAN) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        table);
    insertRange(1, ROWS);

    Map<String, String> envelopeSource = source("postgres-source-envelope.json");
    // Debezium's JDBC sink also takes envelopes that carry their version's transaction block.
    envelopeSource.put("provide.transaction.metadata", "true");
    register("source-envelope", envelopeSource);
    register("source-rows", source("postgres-source-row.json"));
    register("sink-envelope", sink("postgres-sink-envelope.json"));
    register("sink-rows", sink("postgres-sink-row.json"));

    assertMirrors(COLUMNS);
    System.out.println(
        "PostgreSQL columns of " + ENVELOPE + ": " + MirrorRows.columnTypes(db, ENVELOPE));
  }

  @Test
  @Order(2)
  void insertsUpdatesDeletesAndMergeArrive() throws Exception {
    insertRange(ROWS + 1, ROWS + 200);
    sql(
        "UPDATE delta.`%s` SET amount = amount + 1.25, name = concat(name, ' ✓'),"
            + " updated_at = updated_at + INTERVAL 1 SECOND WHERE id %% 10 = 1",
        table);
    sql("DELETE FROM delta.`%s` WHERE id %% 10 = 2", table);
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT id, id %% 3 = 0 AS gone FROM range(%d, %d)) s"
            + " ON t.id = s.id"
            + " WHEN MATCHED AND s.gone THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET active = NOT t.active, day = date_add(t.day, 1)"
            + " WHEN NOT MATCHED THEN INSERT (id, name, amount, updated_at, day, active)"
            + " VALUES (s.id, 'Ørsted ' || s.id, 0.01, TIMESTAMP '1999-12-31 23:59:59.999999',"
            + " DATE '2000-02-29', true)",
        table, ROWS - 50, ROWS + 300);
    assertMirrors(COLUMNS);
  }

  @Test
  @Order(3)
  void updateThatChangesTheKey() throws Exception {
    String changed = "id IN (3, 13, 23)";
    staleRowsOfChangedKeys = snapshot(changed);
    assertThat(staleRowsOfChangedKeys).hasSize(3);
    sql("UPDATE delta.`%s` SET id = id + 1000000 WHERE %s", table, changed);

    List<String> expected = MirrorRows.ofSpark(snapshot(null), COLUMNS);
    awaitEqual(ENVELOPE, COLUMNS, expected);
    // Row format: the post-image upserts the new key; no record names the old key, whose row
    // stays (docs/sinks.md: use record.format=envelope for tables whose keys change).
    List<String> withStale = new ArrayList<>(expected);
    withStale.addAll(MirrorRows.ofSpark(staleRowsOfChangedKeys, COLUMNS));
    withStale.sort(null);
    awaitEqual(ROWS_TABLE, COLUMNS, withStale);
    assertThat(MirrorRows.count(db, ROWS_TABLE)).isEqualTo(expected.size() + 3L);
  }

  @Test
  @Order(4)
  void addedColumnIsAddedByTheSink() throws Exception {
    sql("ALTER TABLE delta.`%s` ADD COLUMNS (note STRING)", table);
    sql("UPDATE delta.`%s` SET note = concat('naïve Δ ', id) WHERE id %% 10 = 1", table);
    sql(
        "INSERT INTO delta.`%s` SELECT id, 'new', 2.50, TIMESTAMP '2024-02-29 12:00:00.000001',"
            + " DATE '2024-02-29', false, 'später' FROM range(%d, %d)",
        table, 3_000_000, 3_000_020);
    assertMirrors(COLUMNS_WITH_NOTE);
    assertThat(MirrorRows.columnTypes(db, ENVELOPE)).contains("note text");
    assertThat(MirrorRows.columnTypes(db, ROWS_TABLE)).contains("note text");
  }

  @Test
  @Order(5)
  void workerKilledInTheMiddleOfALargeVersion() throws Exception {
    long before = endOffset(ENVELOPE);
    sql(
        "INSERT INTO delta.`%s` SELECT id, concat('bulk ', id), id / 100.0,"
            + " TIMESTAMP '2025-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id %% 100000),"
            + " DATE '2025-01-01', id %% 2 = 0, NULL FROM range(%d, %d)",
        table, 5_000_000, 5_000_000 + LARGE_VERSION);
    long atKill = awaitEndOffsetAbove(ENVELOPE, before);
    kafka.killAndRestartWorker();
    System.out.printf(
        "killed the worker with %d of the version's %d envelope records written%n",
        atKill - before, LARGE_VERSION);
    assertThat(atKill - before)
        .as("records of the large version written before the kill")
        .isLessThan(LARGE_VERSION);
    assertMirrors(COLUMNS_WITH_NOTE);
  }

  /**
   * Variants and geometries reach Debezium-aware columns: the JDBC sink writes the JSON text into
   * {@code jsonb} and the WKB with its SRID into a PostGIS {@code geometry}, in a table created as
   * a user would. Skipped where PostGIS is not installed (CI installs it).
   */
  @Test
  @Order(6)
  void variantsAndGeometriesMirrorIntoJsonbAndPostgis() throws Exception {
    Assumptions.assumeTrue(
        postgisAvailable(), "PostGIS (Debian package postgresql-15-postgis-3) is not installed");
    try (Statement statement = db.createStatement()) {
      statement.execute("CREATE EXTENSION IF NOT EXISTS postgis");
      statement.execute(
          "CREATE TABLE places_envelope (id BIGINT PRIMARY KEY, doc JSONB,"
              + " shape geometry(Geometry, 4326))");
    }
    String places = lake.resolve("places").toString();
    RandomJson random = new RandomJson(5L);
    List<String> rows = new ArrayList<>();
    for (int id = 1; id <= 20; id++) {
      String point = String.format("POINT(%d.25 %d.5)", id, -id);
      rows.add(
          String.format(
              "(%d, parse_json('%s'), st_geomfromwkb(X'%s', 4326))",
              id,
              random.record(id).replace("\\", "\\\\").replace("'", "\\'"),
              HexFormat.of().formatHex(new WKBWriter().write(new WKTReader().read(point)))));
    }
    List<String> expected;
    sql("SET spark.databricks.delta.geo.preview.enabled = true");
    try {
      sql(
          "CREATE TABLE delta.`%s` (id BIGINT, doc VARIANT, shape GEOMETRY(4326)) USING delta"
              + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
          places);
      sql("INSERT INTO delta.`%s` VALUES %s", places, String.join(", ", rows));
      sql(
          "UPDATE delta.`%s` SET doc = parse_json('{\"moved\": true}'),"
              + " shape = st_geomfromwkb(X'%s', 4326) WHERE id %% 3 = 0",
          places,
          HexFormat.of().formatHex(new WKBWriter().write(new WKTReader().read("POINT(0 0)"))));
      sql("DELETE FROM delta.`%s` WHERE id %% 5 = 0", places);
      expected =
          SparkHarness.spark()
              .sql(
                  "SELECT concat_ws(' ', id, st_srid(shape), hex(st_asbinary(shape)), to_json(doc))"
                      + " FROM delta.`"
                      + places
                      + "`")
              .as(Encoders.STRING())
              .collectAsList();
    } finally {
      sql("RESET spark.databricks.delta.geo.preview.enabled");
    }

    register(
        "source-places",
        ConnectorConfig.fromExample("postgres-source-envelope.json")
            .with("delta.table.paths", places)
            .startMode("earliest")
            .build());
    Map<String, String> sinkConfig = sink("postgres-sink-envelope.json");
    sinkConfig.put("topics", "places_envelope");
    register("sink-places", sinkConfig);

    Map<Long, String> want = MirrorRows.canonicalShapes(expected);
    long deadline = System.nanoTime() + CONVERGE.toNanos();
    Map<Long, String> got = MirrorRows.placesOfPostgres(db, "places_envelope");
    while (!got.equals(want) && System.nanoTime() < deadline) {
      TestSupport.sleep(500);
      got = MirrorRows.placesOfPostgres(db, "places_envelope");
    }
    assertThat(got).as(kafka.workerLogTail()).isEqualTo(want).hasSize(16);
  }

  private static boolean postgisAvailable() throws SQLException {
    try (Statement statement = db.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'")) {
      result.next();
      return result.getInt(1) > 0;
    }
  }

  // ---- pipeline ----

  private static Map<String, String> source(String example) {
    return ConnectorConfig.fromExample(example)
        .with("delta.table.paths", table)
        // Each version one Kafka transaction; the sinks read read_committed (their example).
        .exactlyOnce()
        .build();
  }

  private static Map<String, String> sink(String example) throws IOException {
    Map<String, String> config = example(example);
    config.put("connection.url", postgres.jdbcUrl());
    config.put("connection.username", postgres.user());
    config.put("connection.password", "");
    return config;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> example(String file) throws IOException {
    Path path = ExternalKafka.repoRoot().resolve("config-examples").resolve(file);
    return new ObjectMapper().readValue(Files.readString(path), Map.class);
  }

  private static void register(String name, Map<String, String> config) {
    rest.deploy(name, config, Duration.ofSeconds(90));
  }

  // ---- Delta side ----

  /** Rows with every type of the table, non-ASCII names, and nulls in every nullable column. */
  private static void insertRange(long from, long to) {
    sql(
        "INSERT INTO delta.`%s` SELECT id,"
            + " CASE WHEN id %% 7 = 0 THEN NULL ELSE concat('Zoë Ålesund 東京 🚀 ', id) END,"
            + " CASE WHEN id %% 11 = 0 THEN NULL ELSE CAST(id * 1.37 - 500 AS DECIMAL(12,2)) END,"
            + " CASE WHEN id %% 13 = 0 THEN NULL ELSE TIMESTAMP '2024-03-10 01:59:59.123456'"
            + "   + make_interval(0, 0, 0, 0, 0, 0, id * 3.000007) END,"
            + " CASE WHEN id %% 17 = 0 THEN NULL ELSE date_add(DATE '1969-12-25', CAST(id AS INT)) END,"
            + " CASE WHEN id %% 19 = 0 THEN NULL ELSE id %% 2 = 0 END"
            + " FROM range(%d, %d)",
        table, from, to + 1);
  }

  private static List<Row> snapshot(String where) {
    String query = "SELECT * FROM delta.`" + table + "`" + (where == null ? "" : " WHERE " + where);
    return SparkHarness.spark().sql(query).collectAsList();
  }

  // ---- comparison ----

  /** Both PostgreSQL tables equal the Delta table's latest snapshot (plus the stale rows). */
  private static void assertMirrors(List<String> columns) throws SQLException {
    List<String> expected = MirrorRows.ofSpark(snapshot(null), columns);
    awaitEqual(ENVELOPE, columns, expected);
    List<String> withStale = new ArrayList<>(expected);
    withStale.addAll(MirrorRows.ofSpark(staleRowsOfChangedKeys, columns));
    withStale.sort(null);
    awaitEqual(ROWS_TABLE, columns, withStale);
  }

  private static void awaitEqual(String pgTable, List<String> columns, List<String> expected)
      throws SQLException {
    long deadline = System.nanoTime() + CONVERGE.toNanos();
    List<String> actual = MirrorRows.ofPostgres(db, pgTable, columns);
    while (!actual.equals(expected) && System.nanoTime() < deadline) {
      TestSupport.sleep(500);
      actual = MirrorRows.ofPostgres(db, pgTable, columns);
    }
    if (!actual.equals(expected)) {
      List<String> missing = new ArrayList<>(expected);
      missing.removeAll(actual);
      List<String> unexpected = new ArrayList<>(actual);
      unexpected.removeAll(expected);
      throw new AssertionError(
          String.format(
              "%s: %d rows, expected %d; missing (first 5) %s; unexpected (first 5) %s%n%s",
              pgTable,
              actual.size(),
              expected.size(),
              first(missing),
              first(unexpected),
              kafka.workerLogTail()));
    }
  }

  // ---- Kafka side ----

  /** The topic's end offset once it has moved past {@code before}, polled every 10 ms. */
  private static long awaitEndOffsetAbove(String topic, long before) throws Exception {
    long deadline = System.nanoTime() + CONVERGE.toNanos();
    try (Admin admin = admin()) {
      while (System.nanoTime() < deadline) {
        long end = endOffset(admin, topic);
        if (end > before) {
          return end;
        }
        Thread.sleep(10);
      }
    }
    throw new AssertionError(
        "No record of the large version on " + topic + "\n" + kafka.workerLogTail());
  }

  private static long endOffset(String topic) throws Exception {
    try (Admin admin = admin()) {
      return endOffset(admin, topic);
    }
  }

  private static long endOffset(Admin admin, String topic) throws Exception {
    TopicPartition partition = new TopicPartition(topic, 0);
    return admin
        .listOffsets(Map.of(partition, OffsetSpec.latest()))
        .all()
        .get(10, TimeUnit.SECONDS)
        .get(partition)
        .offset();
  }

  private static Admin admin() {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    return Admin.create(props);
  }

  private static List<String> first(List<String> rows) {
    return rows.subList(0, Math.min(5, rows.size()));
  }

  private static List<String> concat(List<String> columns, String column) {
    List<String> all = new ArrayList<>(columns);
    all.add(column);
    return List.copyOf(all);
  }
}
