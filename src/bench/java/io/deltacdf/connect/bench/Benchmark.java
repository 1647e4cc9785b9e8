package io.deltacdf.connect.bench;

import io.deltacdf.connect.it.testing.ExternalKafka;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The performance benchmark of issue #6, run by {@code ./benchmark.sh}: our connector against
 * Spark's change feed stream on the same table and broker, the ceilings, latency, idle polls and
 * bounded memory. Prints a table of figures; exits 1 when something failed (e.g. a count did not
 * match), 2 on bad arguments. Not a test: nothing runs it in {@code mvn verify}.
 */
public final class Benchmark {

  private Benchmark() {}

  public static void main(String[] args) throws IOException {
    if (java.util.List.of(args).contains("--help") || java.util.List.of(args).contains("-h")) {
      System.out.print(BenchOptions.USAGE);
      return;
    }
    BenchOptions options;
    try {
      options = BenchOptions.parse(args, ExternalKafka.repoRoot());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(BenchOptions.USAGE);
      System.exit(2);
      return;
    }
    String sparkClasspath = System.getProperty("bench.spark.classpath");
    if (sparkClasspath == null) {
      System.err.println("Run through ./benchmark.sh (it sets -Dbench.spark.classpath)");
      System.exit(2);
    }
    Files.createDirectories(options.workDir().resolve("logs"));
    Jvms jvms = new Jvms(sparkClasspath);
    Tables tables = new Tables(options.workDir().resolve("tables"), jvms);
    Report report = new Report();
    long start = System.nanoTime();
    run(
        report,
        "throughput",
        () -> {
          for (boolean dv : options.deletionVectors()) {
            new ThroughputRun(options, jvms, tables, report).run(dv);
          }
        },
        options);
    run(report, "latency", () -> new LatencyRun(options, tables, report).run(), options);
    run(report, "idle-poll", () -> new IdlePollRun(options, tables, report).run(), options);
    run(report, "memory", () -> new MemoryRun(options, tables, report).run(), options);
    run(report, "snapshot", () -> new SnapshotRun(options, tables, report).run(), options);
    run(report, "derived", () -> new DerivedRun(options, jvms, tables, report).run(), options);
    run(report, "rate-limit", () -> new RateLimitRun(options, tables, report).run(), options);
    run(report, "shards", () -> new ShardsRun(options, jvms, tables, report).run(), options);
    run(
        report,
        "projection",
        () -> new ProjectionRun(options, jvms, tables, report).run(),
        options);
    run(report, "soak", () -> new SoakRun(options, report).run(), options);
    run(
        report,
        "sink",
        () -> {
          try {
            new SinkRun(options, tables, report).run();
          } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
          }
        },
        options);

    String header =
        String.format(
            "Benchmark %s at %s: %d cores, %d MiB RAM, Java %s; %d s",
            options.command(),
            Instant.now(),
            Runtime.getRuntime().availableProcessors(),
            totalMemoryMib(),
            System.getProperty("java.version"),
            (System.nanoTime() - start) / 1_000_000_000);
    report.print(System.out, header);
    Path results = options.workDir().resolve("results-" + System.currentTimeMillis() + ".txt");
    try (PrintStream out = new PrintStream(Files.newOutputStream(results))) {
      report.print(out, header);
    }
    System.out.println("Results: " + results + "; logs: " + options.workDir().resolve("logs"));
    System.exit(report.failed() ? 1 : 0);
  }

  /** Runs one part if selected; an exception fails the part, and the next part still runs. */
  private static void run(Report report, String part, Runnable body, BenchOptions options) {
    if (!options.runs(part)) {
      return;
    }
    try {
      body.run();
    } catch (RuntimeException | Error e) {
      e.printStackTrace();
      report.fail(part + ": " + e);
    }
  }

  private static long totalMemoryMib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException e) {
      // Not Linux.
    }
    return -1;
  }
}
