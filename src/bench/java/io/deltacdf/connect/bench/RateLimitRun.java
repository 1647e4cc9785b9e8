package io.deltacdf.connect.bench;

import java.util.List;
import java.util.Map;

/**
 * max.rows.per.second end to end: the single-commit table read by one task at a few limits, each
 * the time from the first record's append to the last's against the count over the limit. A limit
 * of 0 (none) gives the ceiling it is measured under.
 */
final class RateLimitRun {

  /** Rows read at each limit: a few seconds' worth at the highest, so the run stays short. */
  private static final long ROWS = 100_000;

  private static final List<Integer> LIMITS = List.of(0, 5_000, 20_000);

  private final BenchOptions options;
  private final Tables tables;
  private final Report report;

  RateLimitRun(BenchOptions options, Tables tables, Report report) {
    this.options = options;
    this.tables = tables;
    this.report = report;
  }

  void run() {
    String section = String.format("Rate limit: %,d rows in one version, one task", ROWS);
    Tables.Table table = tables.singleCommit(ROWS);
    try (BenchKafka kafka =
        new BenchKafka(List.of("-Xmx" + options.workerHeap()), options.producer())) {
      for (int limit : LIMITS) {
        String topic = "rate-limit-" + limit;
        Map<String, String> config =
            BenchKafka.connectorConfig(table.path().toString(), topic, "earliest");
        config.putAll(options.connector());
        config.put("max.rows.per.second", Integer.toString(limit));
        BenchKafka.ConnectorRun run = kafka.runConnector(topic, config, ROWS);
        report.checkCount("rate limit " + limit, run.records(), ROWS);
        long first = kafka.topics().read(topic, 0, 1).get(0).timestamp();
        long last = kafka.topics().lastAppendTime(topic);
        double seconds = Math.max(1, last - first) / 1000.0;
        double rate = (ROWS - 1) / seconds;
        report.add(
            section,
            limit == 0 ? "no limit" : "max.rows.per.second=" + limit,
            String.format("%,.0f rows/s", rate),
            limit == 0
                ? String.format("first to last record %.2f s", seconds)
                : String.format(
                    "first to last record %.2f s, %.2f s expected: %+.1f %%",
                    seconds, (ROWS - 1) / (double) limit, (rate / limit - 1) * 100));
        kafka.rest().delete(topic);
      }
    }
  }
}
