package io.deltacdf.connect.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The command line of {@link Benchmark}; see {@link #USAGE}. */
record BenchOptions(
    String command,
    long rows,
    List<Boolean> deletionVectors,
    long snapshotRows,
    long parallelSnapshotRows,
    long commitRows,
    int hugeLogVersions,
    int hugeCommitFiles,
    int hugeDvUpdates,
    int smallVersions,
    int largeVersions,
    int latencyCommits,
    long wideRows,
    String workerHeap,
    Map<String, String> producer,
    Map<String, String> connector,
    boolean profile,
    boolean cold,
    int soakMinutes,
    long soakSeed,
    int soakFaultIntervalSeconds,
    Path workDir) {

  static final String USAGE =
      """
      usage: ./benchmark.sh [all|throughput|latency|idle-poll|memory|snapshot|derived|rate-limit|shards|sink|projection]
                          [options]
             ./benchmark.sh soak [--minutes N] [--seed S] [--fault-interval SECONDS]
        --rows N               rows inserted into the throughput table (default 2000000;
                               also the table the sink part mirrors into PostgreSQL, the
                               derived part reads with change.source=derived and cdf, and
                               the shards part reads in 1, 2 and 4 shards)
        --variant V            throughput table variant: plain, dv (deletion vectors) or both (default)
        --snapshot-rows N      memory: rows of the initial snapshot (default 5000000)
        --commit-rows N        memory: rows of the single commit (default 1000000)
        --parallel-snapshot-rows N
                               snapshot: rows of the table read by one task, then two
                               (default 3000000)
        --huge-log-versions N  memory: versions of the log caught up on (default 100000)
        --huge-commit-files N  memory: file actions of the huge commit (default 1000000)
        --huge-dv-updates N    memory: deletion vector updates of the huge DELETE (default 1000000)
        --versions S,L         idle-poll: versions of the short and the long log (default 100,10000)
        --commits N            latency, sink: small commits to time (default 60)
        --wide-rows N          projection: rows of the 100-column table (default 500000)
        --worker-heap SIZE     -Xmx of the throughput and latency workers (default 1g; memory: 256m)
        --producer K=V,...     producer settings for all three Kafka writers
                               (default linger.ms=5,batch.size=16384,compression.type=none,
                               enable.idempotence=true,max.in.flight.requests.per.connection=5)
        --connector K=V,...    settings added to our connector's config in the throughput part
                               (e.g. batch.max.rows=50000)
        --profile              record a JFR profile of the throughput worker (worker.jfr)
        --cold                 throughput: measure every writer on its first pass, JIT
                               warm-up included (default: each writer first makes one untimed
                               pass over the same feed, so all are measured warm); snapshot:
                               no warm-up snapshot; shards: no warm-up run
        --minutes N            soak: minutes of random commits and faults (default 30);
                               the soak runs only when asked for, never under "all"
        --seed S               soak: seed of its random choices (default: the clock)
        --fault-interval SECONDS
                               soak: mean time between faults (default 30)
        --work DIR             tables, logs and results (default target/benchmark)
        --no-build             (benchmark.sh) skip building connector/ and the test classes
      """;

  static BenchOptions parse(String[] args, Path repo) {
    String command = "all";
    long rows = 2_000_000;
    List<Boolean> dv = List.of(false, true);
    long snapshotRows = 5_000_000;
    long parallelSnapshotRows = 3_000_000;
    long commitRows = 1_000_000;
    int hugeLogVersions = 100_000;
    int hugeCommitFiles = 1_000_000;
    int hugeDvUpdates = 1_000_000;
    int small = 100;
    int large = 10_000;
    int commits = 60;
    long wideRows = 500_000;
    String heap = "1g";
    // Kafka's producer defaults, made explicit: Spark's kafka-clients 3.9 lingers 0 ms, and a
    // Connect worker turns idempotence off and allows one request in flight unless told.
    String producer =
        "linger.ms=5,batch.size=16384,compression.type=none,"
            + "enable.idempotence=true,max.in.flight.requests.per.connection=5";
    String connector = "";
    boolean profile = false;
    boolean cold = false;
    int soakMinutes = 30;
    long soakSeed = System.nanoTime();
    int faultInterval = 30;
    Path work = repo.resolve("target/benchmark");
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        if (!List.of(
                "all",
                "throughput",
                "latency",
                "idle-poll",
                "memory",
                "snapshot",
                "derived",
                "rate-limit",
                "shards",
                "sink",
                "projection",
                "soak")
            .contains(arg)) {
          throw new IllegalArgumentException("Unknown command " + arg);
        }
        command = arg;
        continue;
      }
      if (arg.equals("--profile")) {
        profile = true;
        continue;
      }
      if (arg.equals("--cold")) {
        cold = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(arg + " needs a value");
      }
      String value = args[++i];
      switch (arg) {
        case "--rows" -> rows = Long.parseLong(value);
        case "--variant" ->
            dv =
                switch (value) {
                  case "plain" -> List.of(false);
                  case "dv" -> List.of(true);
                  case "both" -> List.of(false, true);
                  default -> throw new IllegalArgumentException("--variant plain|dv|both");
                };
        case "--snapshot-rows" -> snapshotRows = Long.parseLong(value);
        case "--commit-rows" -> commitRows = Long.parseLong(value);
        case "--parallel-snapshot-rows" -> parallelSnapshotRows = Long.parseLong(value);
        case "--huge-log-versions" -> hugeLogVersions = Integer.parseInt(value);
        case "--huge-commit-files" -> hugeCommitFiles = Integer.parseInt(value);
        case "--huge-dv-updates" -> hugeDvUpdates = Integer.parseInt(value);
        case "--versions" -> {
          String[] parts = value.split(",");
          small = Integer.parseInt(parts[0]);
          large = Integer.parseInt(parts[1]);
        }
        case "--commits" -> commits = Integer.parseInt(value);
        case "--wide-rows" -> wideRows = Long.parseLong(value);
        case "--worker-heap" -> heap = value;
        case "--producer" -> producer = value;
        case "--connector" -> connector = value;
        case "--minutes" -> soakMinutes = Integer.parseInt(value);
        case "--seed" -> soakSeed = Long.parseLong(value);
        case "--fault-interval" -> faultInterval = Integer.parseInt(value);
        case "--work" -> work = Path.of(value).toAbsolutePath();
        default -> throw new IllegalArgumentException("Unknown option " + arg);
      }
    }
    return new BenchOptions(
        command,
        rows,
        dv,
        snapshotRows,
        parallelSnapshotRows,
        commitRows,
        hugeLogVersions,
        hugeCommitFiles,
        hugeDvUpdates,
        small,
        large,
        commits,
        wideRows,
        heap,
        settings(producer),
        settings(connector),
        profile,
        cold,
        soakMinutes,
        soakSeed,
        faultInterval,
        work);
  }

  /** {@code k1=v1,k2=v2} as a map. */
  private static Map<String, String> settings(String list) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String kv : list.split(",")) {
      if (!kv.isBlank()) {
        String[] parts = kv.split("=", 2);
        if (parts.length != 2) {
          throw new IllegalArgumentException("Expected key=value, got '" + kv + "'");
        }
        settings.put(parts[0].trim(), parts[1].trim());
      }
    }
    return Map.copyOf(settings);
  }

  /** Whether {@code part} runs: every part but the soak under "all"; the soak only by name. */
  boolean runs(String part) {
    return command.equals(part) || (command.equals("all") && !part.equals("soak"));
  }
}
