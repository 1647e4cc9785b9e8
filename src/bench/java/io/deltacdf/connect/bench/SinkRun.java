package io.deltacdf.connect.bench;

import io.deltacdf.connect.it.sink.testing.PostgresServer;
import io.deltacdf.connect.it.testing.ExternalKafka;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Delta → our connector → Kafka → Debezium's JDBC sink → PostgreSQL, as the docs/sinks.md recipe
 * (config-examples/postgres-*.json) sets it up, in one worker with both plugins
 * (target/sink-plugins/, unpacked by {@code mvn test-compile}) and a private PostgreSQL.
 *
 * <p>Latency: small commits as in {@link LatencyRun}, after one warm-up commit; a commit's latency
 * is the moment its last row was written in PostgreSQL (a column added after the warm-up,
 * defaulting to {@code clock_timestamp()}: set when the sink inserts the row, whose transaction
 * commits just after) minus the commit's {@code _commit_timestamp}, which the row format writes as
 * a column ({@code record.metadata.fields=true}). Throughput: the throughput part's table, envelope
 * format, from registering both connectors until the sink has committed the offset of the last
 * record (polled every 250 ms; the worker commits sink offsets every second).
 */
final class SinkRun {

  private static final int ROWS_PER_COMMIT = 10;
  private static final long PAUSE_MS = 300;
  private static final Duration STALL = Duration.ofMinutes(5);

  /** The sink's settings that shape its batches, as in the examples; stated in the report. */
  private static final Map<String, String> SINK_BATCHING =
      Map.of("batch.size", "500", "consumer.override.max.poll.records", "500");

  private final BenchOptions options;
  private final Tables tables;
  private final Report report;

  SinkRun(BenchOptions options, Tables tables, Report report) {
    this.options = options;
    this.tables = tables;
    this.report = report;
  }

  void run() throws SQLException {
    Path sinkPlugins = ExternalKafka.repoRoot().resolve("target/sink-plugins");
    if (!Files.isDirectory(sinkPlugins.resolve("debezium-connector-jdbc"))) {
      throw new IllegalStateException(
          "No JDBC sink plugin in "
              + sinkPlugins
              + ": run 'mvn test-compile' (without -DskipTests) once");
    }
    Map<String, String> worker =
        Map.of("plugin.path", ExternalKafka.repoRoot().resolve("connector") + "," + sinkPlugins);
    try (PostgresServer postgres = PostgresServer.start();
        Connection db = postgres.connect();
        BenchKafka kafka =
            new BenchKafka(List.of("-Xmx" + options.workerHeap()), options.producer(), worker)) {
      latency(postgres, db, kafka);
      throughput(postgres, db, kafka);
    }
  }

  private void latency(PostgresServer postgres, Connection db, BenchKafka kafka)
      throws SQLException {
    String section =
        "Sink latency: "
            + options.latencyCommits()
            + " commits of "
            + ROWS_PER_COMMIT
            + " rows, "
            + PAUSE_MS
            + " ms apart, poll.interval.ms=200, sink "
            + SINK_BATCHING;
    Tables.Table table = tables.fresh("sink-latency", 1_000);
    String topic = "sink_latency";
    kafka.topics().create(topic);
    Map<String, String> source = source(table, topic, "latest");
    source.put("record.format", "row");
    source.put("change.types", "insert,update_postimage,delete");
    source.put("record.metadata.fields", "true");
    source.put("poll.interval.ms", "200");
    register(kafka, "sink-latency-source", source);
    register(kafka, "sink-latency-sink", sink(postgres, topic));

    // A warm-up commit makes the sink create the table; then a column the sink does not know
    // (it leaves extra columns alone) records when PostgreSQL got each later row.
    tables.appendSmallCommits(table, 1, ROWS_PER_COMMIT, 0);
    report.checkCount(
        "sink latency warm-up rows", awaitRows(db, topic, ROWS_PER_COMMIT), ROWS_PER_COMMIT);
    execute(
        db,
        "ALTER TABLE " + topic + " ADD COLUMN mirrored_at TIMESTAMPTZ DEFAULT clock_timestamp()");
    tables.appendSmallCommits(table, options.latencyCommits(), ROWS_PER_COMMIT, PAUSE_MS);
    long expected = (long) (options.latencyCommits() + 1) * ROWS_PER_COMMIT;
    long count = awaitRows(db, topic, expected);
    report.checkCount("sink latency rows in PostgreSQL", count, expected);

    Map<Long, Long> latencyByVersion = new TreeMap<>();
    try (Statement statement = db.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT _commit_version, _commit_timestamp,"
                    + " mirrored_at FROM "
                    + topic
                    + " WHERE _commit_version > (SELECT"
                    + " min(_commit_version) FROM "
                    + topic
                    + ")")) {
      while (rs.next()) {
        long written = rs.getTimestamp(3).getTime();
        long latency = written - epochMillis(rs.getObject(2));
        latencyByVersion.merge(rs.getLong(1), latency, Math::max);
      }
    }
    long[] latencies =
        latencyByVersion.values().stream().mapToLong(Long::longValue).sorted().toArray();
    report.add(
        section,
        "commit-to-database p50",
        Report.percentile(latencies, 50) + " ms",
        "commit file written -> its last row written in PostgreSQL");
    report.add(
        section,
        "commit-to-database p99",
        Report.percentile(latencies, 99) + " ms",
        "over " + latencies.length + " commits");
    report.add(
        section,
        "commit-to-database max",
        latencies[latencies.length - 1] + " ms",
        "the writer's JVM, the worker, the broker and PostgreSQL share the cores");
  }

  private void throughput(PostgresServer postgres, Connection db, BenchKafka kafka)
      throws SQLException {
    Tables.Table table = tables.customers(options.rows(), false);
    Map<String, String> counts = table.counts();
    long changeRows = table.cdfRows();
    long inserts = Long.parseLong(counts.getOrDefault("cdf_insert", "0"));
    long updates = Long.parseLong(counts.getOrDefault("cdf_update_postimage", "0"));
    long deletes = Long.parseLong(counts.getOrDefault("cdf_delete", "0"));
    // Envelope records: one per insert, one 'u' per update pair, a 'd' and a tombstone per delete.
    long records = inserts + updates + 2 * deletes;
    String section =
        String.format(
            "Sink throughput: %,d rows inserted, UPDATE 20%%, DELETE 5%%,"
                + " envelope into PostgreSQL, sink %s",
            options.rows(), SINK_BATCHING);
    String topic = "sink_throughput";
    kafka.topics().create(topic);
    long start = System.currentTimeMillis();
    register(kafka, "sink-throughput-source", source(table, topic, "earliest"));
    register(kafka, "sink-throughput-sink", sink(postgres, topic));
    long end = awaitSinkCommitted(kafka, "sink-throughput-sink", topic, records);
    long millis = end - start;
    report.checkCount("sink throughput rows in PostgreSQL", count(db, topic), inserts - deletes);
    report.add(
        section,
        "pipeline Delta -> PostgreSQL",
        Report.rate(changeRows, millis),
        String.format(
            "%,d change rows (%,d records) in %d ms, registration to the sink's"
                + " offset commit of the last record",
            changeRows, records, millis));
  }

  private Map<String, String> source(Tables.Table table, String topic, String startMode) {
    return ConnectorConfig.forTables(table.path().toString())
        .topicTemplate(topic)
        .keyColumns("id")
        .startMode(startMode)
        .with("record.format", "envelope")
        .with("tombstones.on.delete", "true")
        .with("temporal.precision.mode", "microseconds")
        .with("key.converter", "org.apache.kafka.connect.json.JsonConverter")
        .with("value.converter", "org.apache.kafka.connect.json.JsonConverter")
        .build();
  }

  private static Map<String, String> sink(PostgresServer postgres, String topic) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.debezium.connector.jdbc.JdbcSinkConnector");
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("connection.url", postgres.jdbcUrl());
    config.put("connection.username", postgres.user());
    config.put("connection.password", "");
    config.put("insert.mode", "upsert");
    config.put("primary.key.mode", "record_key");
    config.put("delete.enabled", "true");
    config.put("schema.evolution", "basic");
    config.put("collection.name.format", "${topic}");
    config.putAll(SINK_BATCHING);
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    return config;
  }

  private static void register(BenchKafka kafka, String name, Map<String, String> config) {
    kafka.rest().putConfig(name, config);
    kafka.rest().awaitRunning(name, 1, Duration.ofSeconds(60));
  }

  private static long awaitRows(Connection db, String table, long expected) throws SQLException {
    long deadline = System.nanoTime() + STALL.toNanos();
    long count = count(db, table);
    while (count < expected && System.nanoTime() < deadline) {
      sleep(100);
      count = count(db, table);
    }
    return count;
  }

  /** When the sink's consumer group has committed {@code records} offsets of the topic. */
  private static long awaitSinkCommitted(
      BenchKafka kafka, String sinkName, String topic, long records) {
    TopicPartition partition = new TopicPartition(topic, 0);
    long lastProgress = System.nanoTime();
    long committed = -1;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      while (true) {
        Map<TopicPartition, OffsetAndMetadata> offsets =
            admin
                .listConsumerGroupOffsets("connect-" + sinkName)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        OffsetAndMetadata offset = offsets.get(partition);
        long now = offset == null ? 0 : offset.offset();
        if (now >= records) {
          return System.currentTimeMillis();
        }
        if (now > committed) {
          committed = now;
          lastProgress = System.nanoTime();
        } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
          throw new IllegalStateException(
              "The sink stalled at offset " + committed + " of " + records);
        }
        sleep(250);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long count(Connection db, String table) throws SQLException {
    try (Statement statement = db.createStatement();
        ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException tableNotYetCreated) {
      if ("42P01".equals(tableNotYetCreated.getSQLState())) {
        return 0;
      }
      throw tableNotYetCreated;
    }
  }

  /** A {@code _commit_timestamp} column as the sink created it: a timestamp (UTC) or epoch ms. */
  private static long epochMillis(Object value) {
    if (value instanceof Timestamp timestamp) {
      return timestamp.toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli();
    }
    if (value instanceof LocalDateTime local) {
      return local.toInstant(ZoneOffset.UTC).toEpochMilli();
    }
    return ((Number) value).longValue();
  }

  private static void execute(Connection db, String sql) throws SQLException {
    try (Statement statement = db.createStatement()) {
      statement.execute(sql);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
