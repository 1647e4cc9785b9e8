package io.deltacdf.connect.bench;

import io.deltacdf.connect.it.testing.TopicReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Commit-to-record latency: a Spark JVM appends small commits to a table while the connector tails
 * it with poll.interval.ms=200; a commit's latency is the broker's append time of its last record
 * minus its {@code _commit_timestamp} (the commit file's time, or its in-commit timestamp).
 */
final class LatencyRun {

  private static final int ROWS_PER_COMMIT = 10;
  private static final long PAUSE_MS = 300;

  private final BenchOptions options;
  private final Tables tables;
  private final Report report;

  LatencyRun(BenchOptions options, Tables tables, Report report) {
    this.options = options;
    this.tables = tables;
    this.report = report;
  }

  void run() {
    String section =
        "Latency: "
            + options.latencyCommits()
            + " commits of "
            + ROWS_PER_COMMIT
            + " rows, "
            + PAUSE_MS
            + " ms apart, poll.interval.ms=200";
    Tables.Table table = tables.fresh("latency", 1_000);
    try (BenchKafka kafka =
        new BenchKafka(List.of("-Xmx" + options.workerHeap()), options.producer())) {
      String topic = "latency";
      kafka.topics().create(topic);
      Map<String, String> config =
          BenchKafka.connectorConfig(table.path().toString(), topic, "latest");
      config.put("poll.interval.ms", "200");
      kafka.rest().putConfig(topic, config);
      kafka.rest().awaitRunning(topic, 1, Duration.ofSeconds(60));
      tables.appendSmallCommits(table, options.latencyCommits(), ROWS_PER_COMMIT, PAUSE_MS);
      long expected = (long) options.latencyCommits() * ROWS_PER_COMMIT;
      long count = kafka.topics().awaitCount(topic, expected, Duration.ofSeconds(30), () -> {});
      report.checkCount("latency records", count, expected);
      List<ConsumerRecord<byte[], byte[]>> records = kafka.topics().read(topic, 0, (int) expected);
      // A commit has arrived when its last record has.
      Map<Long, Long> latencyByVersion = new TreeMap<>();
      for (ConsumerRecord<byte[], byte[]> r : records) {
        long latency = r.timestamp() - TopicReader.longHeader(r, "_commit_timestamp");
        latencyByVersion.merge(TopicReader.longHeader(r, "_commit_version"), latency, Math::max);
      }
      long[] latencies =
          latencyByVersion.values().stream().mapToLong(Long::longValue).sorted().toArray();
      report.add(
          section,
          "commit-to-record p50",
          Report.percentile(latencies, 50) + " ms",
          "commit file written -> its last record appended");
      report.add(
          section,
          "commit-to-record p99",
          Report.percentile(latencies, 99) + " ms",
          "target < 1000 ms");
      report.add(
          section,
          "commit-to-record max",
          latencies[latencies.length - 1] + " ms",
          "over " + latencies.length + " commits; the writer's JVM shares the cores");
    }
  }
}
