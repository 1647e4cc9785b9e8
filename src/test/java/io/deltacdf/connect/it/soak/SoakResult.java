package io.deltacdf.connect.it.soak;

import io.deltacdf.connect.it.soak.ArrivalClock.Arrival;
import io.deltacdf.connect.it.soak.MemorySampler.Sample;
import io.deltacdf.connect.it.soak.Soak.TopicCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** What a soak found: its figures, and what failed (rows lost or repeated, a connector stuck). */
public record SoakResult(
    Soak.Options options,
    long seconds,
    Map<String, Integer> operations,
    Map<Fault, Integer> faults,
    List<String> events,
    List<String> taskFailures,
    List<TopicCheck> checks,
    List<Arrival> arrivals,
    long catchUpMs,
    List<Sample> memory,
    List<String> problems) {

  /** One figure: a name, its value, a note. */
  public record Figure(String name, String value, String note) {}

  public long lost() {
    return checks.stream().mapToLong(c -> c.check().lost).sum();
  }

  public long duplicated() {
    return checks.stream().mapToLong(c -> c.check().duplicated).sum();
  }

  public long unexpected() {
    return checks.stream().mapToLong(c -> c.check().unexpected).sum();
  }

  /**
   * Rows lost, repeated or never in the feed, order broken, or a connector that never recovered.
   */
  public List<String> failures() {
    List<String> failures = new ArrayList<>(problems);
    for (TopicCheck c : checks) {
      if (c.check().lost > 0
          || c.check().duplicated > 0
          || c.check().unexpected > 0
          || !c.check().orderProblems.isEmpty()) {
        failures.add(c.topic() + ": " + c.check().summary());
      }
    }
    return failures;
  }

  public List<Figure> figures() {
    List<Figure> figures = new ArrayList<>();
    figures.add(
        new Figure(
            "run",
            seconds + " s",
            String.format(
                "workload %s, seed %d, a fault every ~%d s",
                options.length(), options.seed(), options.meanFaultInterval().toSeconds())));
    figures.add(
        new Figure(
            "Spark commits",
            Long.toString(checks.stream().mapToLong(TopicCheck::versionsCommitted).sum()),
            operations.toString()));
    figures.add(
        new Figure(
            "versions streamed",
            Long.toString(checks.stream().mapToLong(TopicCheck::versionsStreamed).sum()),
            "versions with rows (OPTIMIZE and the rename carry none), over "
                + checks.size()
                + " topics"));
    figures.add(
        new Figure(
            "rows streamed",
            Long.toString(checks.stream().mapToLong(c -> c.check().total).sum()),
            "records read with read_committed, tombstones included; expected "
                + checks.stream().mapToLong(c -> c.check().expected).sum()));
    figures.add(
        new Figure(
            "faults injected",
            Integer.toString(faults.values().stream().mapToInt(Integer::intValue).sum()),
            faults.entrySet().stream()
                .map(e -> e.getKey().description() + " " + e.getValue())
                .collect(Collectors.joining(", "))));
    figures.add(
        new Figure(
            "task failures",
            Integer.toString(taskFailures.size()),
            taskFailures.isEmpty()
                ? "no connector or task FAILED"
                : "restarted like an operator would; first: " + taskFailures.get(0)));
    figures.add(new Figure("rows lost", Long.toString(lost()), "must be 0"));
    figures.add(
        new Figure("rows duplicated", Long.toString(duplicated()), "must be 0 (exactly-once)"));
    figures.add(new Figure("rows unexpected", Long.toString(unexpected()), "must be 0"));
    figures.add(longestStall());
    figures.add(
        new Figure(
            "catch-up and compare",
            catchUpMs + " ms",
            "from the workload's end until every topic was read whole and compared (Spark's"
                + " change feed read, 3 s without new records per topic)"));
    figures.addAll(memoryFigures());
    return figures;
  }

  private Figure longestStall() {
    if (arrivals.isEmpty()) {
      return new Figure("longest stall", "-", "no version arrived");
    }
    List<Long> stalls = arrivals.stream().map(Arrival::stallMs).sorted().toList();
    Arrival worst = arrivals.stream().max(Comparator.comparingLong(Arrival::stallMs)).get();
    return new Figure(
        "longest stall",
        worst.stallMs() + " ms",
        String.format(
            "commit to first record readable (read_committed): %s v%d; p50 %d ms, p99 %d ms"
                + " over %d versions",
            worst.topic(),
            worst.version(),
            stalls.get(stalls.size() / 2),
            stalls.get(Math.min(stalls.size() - 1, stalls.size() * 99 / 100)),
            stalls.size()));
  }

  /** Per worker JVM (A, B and their restarts): RSS and heap at its first and last sample, peaks. */
  private List<Figure> memoryFigures() {
    Map<String, List<Sample>> byJvm = new TreeMap<>();
    for (Sample s : memory) {
      byJvm.computeIfAbsent(s.worker() + " pid " + s.pid(), k -> new ArrayList<>()).add(s);
    }
    List<Figure> figures = new ArrayList<>();
    byJvm.forEach(
        (jvm, samples) -> {
          Sample first = samples.get(0);
          Sample last = samples.get(samples.size() - 1);
          figures.add(
              new Figure(
                  "worker " + jvm,
                  "RSS " + samples.stream().mapToLong(Sample::rssMib).max().getAsLong() + " MiB",
                  String.format(
                      "peak; heap used peak %d MiB; +%d s: RSS %d, heap %d -> +%d s: RSS %d,"
                          + " heap %d MiB (%d samples)",
                      samples.stream().mapToLong(Sample::heapMib).max().getAsLong(),
                      first.secondsIn(),
                      first.rssMib(),
                      first.heapMib(),
                      last.secondsIn(),
                      last.rssMib(),
                      last.heapMib(),
                      samples.size())));
        });
    return figures;
  }

  /** Every memory sample, one line each, for a file next to the results. */
  public String memoryCsv() {
    StringBuilder csv = new StringBuilder("seconds,worker,pid,rss_mib,heap_used_mib\n");
    memory.forEach(
        s ->
            csv.append(
                String.format(
                    "%d,%s,%d,%d,%d%n",
                    s.secondsIn(), s.worker(), s.pid(), s.rssMib(), s.heapMib())));
    return csv.toString();
  }
}
