package io.deltacdf.connect.it.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.soak.ArrivalClock.Arrival;
import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.S3Mock;
import io.deltacdf.connect.testing.SparkHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A soak: for a set time Spark keeps changing a few CDF tables under a {@code delta.tables.root}
 * (local files) and one on an S3 emulator, while one exactly-once connector streams them on two
 * Connect workers (separate JVMs loading the packaged plugin) and faults hit at random; then a
 * read_committed consumer compares every topic with Spark's change feed. See docs/benchmark.md (the
 * soak part) for what it measures and why.
 */
public final class Soak {

  /** What to run: how long, which seed, where, how often a fault, which faults. */
  public record Options(
      Duration length,
      long seed,
      Path workDir,
      Duration meanFaultInterval,
      Duration catchUp,
      List<Fault> faults) {

    public static Options of(Duration length, long seed, Path workDir) {
      return new Options(
          length,
          seed,
          workDir,
          Duration.ofSeconds(30),
          Duration.ofMinutes(3),
          List.of(Fault.values()));
    }
  }

  static final String CONNECTOR = "soak";
  private static final String TOPIC_PREFIX = "soak-";
  private static final Duration HEALTHY_WITHIN = Duration.ofMinutes(3);
  private static final int LARGE_ROWS = 2_000;
  private static final String S3_TABLE = "soak_s3";
  private static final Duration STORE_DOWN = Duration.ofSeconds(20);

  private final Options options;
  private final Random random;
  private final Path lake;
  private final Map<String, ChangingTable> tables = new TreeMap<>();

  /** Held by each Spark write to the S3 table, and by an outage: Spark never writes into one. */
  private final ReentrantLock storeUp = new ReentrantLock();

  private final Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final List<String> taskFailures = new CopyOnWriteArrayList<>();
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private final long startMs = System.currentTimeMillis();
  private KafkaCluster cluster;
  private S3Mock s3;
  private Workers workers;
  private volatile int tasksMax = 2;
  private volatile boolean stopFaults;

  private Soak(Options options) {
    this.options = options;
    this.random = new Random(options.seed());
    this.lake = options.workDir().resolve("lake");
  }

  /** Runs the soak and returns what it found; the folder {@code workDir} keeps logs and tables. */
  public static SoakResult run(Options options) {
    return new Soak(options).run();
  }

  private SoakResult run() {
    log(
        "seed %d (-Dsoak.seed / --seed to replay the same choices), %s, faults %s",
        options.seed(), options.length(), options.faults());
    try {
      Files.createDirectories(lake);
      s3 = S3Mock.start("soak");
      s3.configure(SparkHarness.spark());
      table("soak_a", false);
      table("soak_b", false);
      table("soak_renamed", true);
      table(S3_TABLE, false);
      tables.values().forEach(t -> t.write(3));
      cluster = KafkaCluster.builder().exactlyOnce(true).workerLogLevel("WARN").start();
      workers = new Workers(cluster);
      try (ArrivalClock clock =
              new ArrivalClock(
                  cluster.bootstrapServers(), Pattern.compile(Pattern.quote(TOPIC_PREFIX) + ".*"));
          MemorySampler memory = new MemorySampler(workers::running, sampleInterval())) {
        workers.rest().putConfig(CONNECTOR, config());
        awaitHealthy("deploy");
        long deployedAtMs = System.currentTimeMillis();
        Thread faultThread = new Thread(this::injectFaults, "soak-faults");
        faultThread.start();
        Map<String, Integer> operations = workload(deployedAtMs);
        stopFaults = true;
        faultThread.join();
        awaitHealthy("end of workload");
        long stoppedAtMs = System.currentTimeMillis();
        List<TopicCheck> checks = compare();
        long caughtUpMs = System.currentTimeMillis() - stoppedAtMs;
        List<Arrival> arrivals =
            clock.arrivals().stream().filter(a -> a.committedAtMs() >= deployedAtMs).toList();
        return new SoakResult(
            options,
            (System.currentTimeMillis() - startMs) / 1000,
            operations,
            new EnumMap<>(faults),
            List.copyOf(events),
            List.copyOf(taskFailures),
            checks,
            arrivals,
            caughtUpMs,
            memory.samples(),
            List.copyOf(problems));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      stopFaults = true;
      tables.values().forEach(ChangingTable::close);
      try {
        if (cluster != null) {
          keepWorkerLogs();
          cluster.close();
        }
      } finally {
        if (s3 != null) {
          s3.close();
        }
      }
    }
  }

  private Duration sampleInterval() {
    return options.length().compareTo(Duration.ofMinutes(10)) > 0
        ? Duration.ofSeconds(30)
        : Duration.ofSeconds(10);
  }

  private ChangingTable table(String name, boolean columnMapping) {
    String path = name.equals(S3_TABLE) ? s3Path() : lake.resolve(name).toString();
    ChangingTable table = new ChangingTable(path, random.nextLong(), LARGE_ROWS, columnMapping);
    tables.put(name, table);
    return table;
  }

  private static String s3Path() {
    return "s3a://soak/" + S3_TABLE;
  }

  private Map<String, String> config() {
    return ConnectorConfig.forTables(s3Path())
        .with("delta.tables.root", lake.toString())
        .with("delta.tables.rescan.interval.ms", "2000")
        .topicTemplate(TOPIC_PREFIX + "${table}")
        .keyColumns("id")
        .startMode("earliest")
        .pollIntervalMs(200)
        .tasksMax(tasksMax)
        .with("batch.max.rows", "500")
        .exactlyOnce()
        .with("s3.credentials", "static")
        .with("s3.access.key.id", S3Mock.ACCESS_KEY)
        .with("s3.secret.access.key", S3Mock.SECRET_KEY)
        .with("s3.endpoint", s3.endpoint())
        .with("s3.path.style.access", "true")
        .with("s3.region", S3Mock.REGION)
        .with("storage.insecure.http.allowed", "true")
        // S3A's defaults retry a refused connection for ~9 minutes inside one call: bounded, the
        // connector's own backoff handles the outage (as in S3IT).
        .with("hadoop.fs.s3a.retry.limit", "1")
        .with("hadoop.fs.s3a.retry.interval", "200ms")
        .with("hadoop.fs.s3a.attempts.maximum", "0")
        .build();
  }

  /**
   * Commits one random change after another to a random table until the time is up; renames a
   * column of soak_renamed at 30 % of the time and creates soak_late under the root at 45 %.
   */
  private Map<String, Integer> workload(long deployedAtMs) throws InterruptedException {
    long lengthMs = options.length().toMillis();
    boolean renamed = false;
    boolean late = false;
    long now;
    while ((now = System.currentTimeMillis()) < deployedAtMs + lengthMs) {
      if (!renamed && now > deployedAtMs + lengthMs * 3 / 10) {
        renamed = true;
        tables.get("soak_renamed").renameNote();
        event("workload: soak_renamed: note renamed to " + ChangingTable.RENAMED_NOTE);
      } else if (!late && now > deployedAtMs + lengthMs * 45 / 100) {
        late = true;
        table("soak_late", false);
        event("workload: soak_late created under the root");
      } else {
        write(new ArrayList<>(tables.keySet()).get(random.nextInt(tables.size())));
      }
      Thread.sleep(random.nextInt(200));
    }
    Map<String, Integer> operations = new TreeMap<>();
    tables
        .values()
        .forEach(t -> t.operations().forEach((k, n) -> operations.merge(k, n, Integer::sum)));
    return operations;
  }

  /** One change to a table; none to the S3 table while the store is down. */
  private void write(String name) {
    if (!name.equals(S3_TABLE)) {
      tables.get(name).write(1);
    } else if (storeUp.tryLock()) {
      try {
        tables.get(name).write(1);
      } finally {
        storeUp.unlock();
      }
    }
  }

  /**
   * Injects a fault every mean interval (0.5 to 1.5 times it); watches for failed tasks between.
   */
  private void injectFaults() {
    List<Fault> cycle = new ArrayList<>();
    long nextAt = System.currentTimeMillis() + nextInterval();
    while (!stopFaults) {
      if (System.currentTimeMillis() < nextAt) {
        restartFailed(status());
        sleep(2_000);
        continue;
      }
      if (cycle.isEmpty()) {
        // Every kind once per round, in a random order.
        cycle.addAll(options.faults());
        Collections.shuffle(cycle, random);
      }
      Fault fault = cycle.remove(0);
      try {
        event(fault + ": " + inject(fault));
        faults.merge(fault, 1, Integer::sum);
        awaitHealthy("after " + fault);
      } catch (RuntimeException e) {
        problems.add(fault + " failed: " + e);
        event(fault + " failed: " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      nextAt = System.currentTimeMillis() + nextInterval();
    }
  }

  private long nextInterval() {
    long mean = options.meanFaultInterval().toMillis();
    return mean / 2 + (long) (random.nextDouble() * mean);
  }

  private String inject(Fault fault) throws InterruptedException {
    return switch (fault) {
      case WORKER_KILL -> {
        Duration down = Duration.ofSeconds(2 + random.nextInt(7));
        String which = workers.killAndRestart(random.nextBoolean(), down);
        yield "worker " + which + " killed, restarted after " + down.toSeconds() + " s";
      }
      case CONFIG_CHANGE -> {
        int previous = tasksMax;
        List<Integer> others = new ArrayList<>(List.of(1, 2, 3));
        others.remove(Integer.valueOf(previous));
        tasksMax = others.get(random.nextInt(others.size()));
        workers.rest().putConfig(CONNECTOR, config());
        yield "tasks.max " + previous + " -> " + tasksMax;
      }
      case BROKER_RESTART -> {
        Duration down = Duration.ofSeconds(1 + random.nextInt(5));
        cluster.restartBroker(down);
        yield "broker shut down, started again after " + down.toSeconds() + " s";
      }
      case STORE_OUTAGE -> {
        storeUp.lock();
        try {
          s3.stop();
          Thread.sleep(STORE_DOWN.toMillis());
          s3.start();
        } finally {
          storeUp.unlock();
        }
        yield "S3 emulator stopped for " + STORE_DOWN.toSeconds() + " s";
      }
    };
  }

  /**
   * Waits until the connector and all its tasks are RUNNING (twice in a row, a second apart),
   * restarting failed tasks as an operator would, and counting them.
   */
  private void awaitHealthy(String when) {
    long deadline = System.nanoTime() + HEALTHY_WITHIN.toNanos();
    int healthyChecks = 0;
    JsonNode last = null;
    while (System.nanoTime() < deadline) {
      last = status();
      if (last != null && !restartFailed(last) && running(last)) {
        if (++healthyChecks == 2) {
          return;
        }
      } else {
        healthyChecks = 0;
      }
      sleep(1_000);
    }
    problems.add("connector not healthy " + HEALTHY_WITHIN + " " + when + ": " + last);
    event("connector not healthy " + when);
  }

  private static boolean running(JsonNode status) {
    boolean running =
        "RUNNING".equals(status.path("connector").path("state").asText())
            && status.path("tasks").size() > 0;
    for (JsonNode task : status.path("tasks")) {
      running &= "RUNNING".equals(task.path("state").asText());
    }
    return running;
  }

  /** Restarts the failed connector or tasks, noting why they failed; false when none failed. */
  private boolean restartFailed(JsonNode status) {
    if (status == null) {
      return false;
    }
    List<String> failed = new ArrayList<>();
    if ("FAILED".equals(status.path("connector").path("state").asText())) {
      failed.add("connector: " + firstLine(status.path("connector").path("trace").asText()));
    }
    for (JsonNode task : status.path("tasks")) {
      if ("FAILED".equals(task.path("state").asText())) {
        failed.add(
            "task " + task.path("id").asInt() + ": " + firstLine(task.path("trace").asText()));
      }
    }
    if (failed.isEmpty()) {
      return false;
    }
    taskFailures.addAll(failed);
    event("FAILED, restarting: " + failed);
    try {
      workers
          .rest()
          .post("/connectors/" + CONNECTOR + "/restart?includeTasks=true&onlyFailed=true");
    } catch (RuntimeException e) {
      // The worker went away; the next check tries again.
    }
    return true;
  }

  /** The connector's status, or null while no worker answers (one may just have been killed). */
  private JsonNode status() {
    try {
      ConnectRest.Response response = workers.rest().get("/connectors/" + CONNECTOR + "/status");
      return response.ok() ? response.body() : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Reads every topic with read_committed until it holds the whole change feed Spark reads from its
   * table (or the catch-up time is over), then compares the two as multisets.
   */
  private List<TopicCheck> compare() {
    long deadline = System.nanoTime() + options.catchUp().toNanos();
    List<TopicCheck> checks = new ArrayList<>();
    for (Map.Entry<String, ChangingTable> entry : tables.entrySet()) {
      String topic = TOPIC_PREFIX + entry.getKey();
      List<String> expected = entry.getValue().sparkChanges();
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(),
              topic,
              expected,
              Duration.ofSeconds(3),
              Duration.ofNanos(Math.max(1, deadline - System.nanoTime())),
              true);
      FeedCheck check = new FeedCheck(expected, records);
      long versions =
          records.stream()
              .map(r -> TopicReader.longHeader(r, "_commit_version"))
              .distinct()
              .count();
      checks.add(new TopicCheck(topic, entry.getValue().latestVersion() + 1, versions, check));
      log("%s: %d versions streamed; %s", topic, versions, check.summary());
    }
    return checks;
  }

  /** One topic against its table: versions committed and streamed, and the multiset check. */
  public record TopicCheck(
      String topic, long versionsCommitted, long versionsStreamed, FeedCheck check) {}

  private void keepWorkerLogs() {
    Path logs = options.workDir().resolve("logs");
    Path clusterDir = cluster.workerLog().getParent();
    try (Stream<Path> files = Files.walk(clusterDir)) {
      Files.createDirectories(logs);
      for (Path log : files.filter(p -> p.getFileName().toString().equals("worker.log")).toList()) {
        String name = clusterDir.relativize(log).toString().replace('/', '-');
        Files.copy(log, logs.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      log("could not keep the worker logs: %s", e);
    }
  }

  private void event(String text) {
    String line = String.format("+%4ds %s", (System.currentTimeMillis() - startMs) / 1000, text);
    events.add(line);
    System.out.println("[soak] " + line);
  }

  private static void log(String format, Object... args) {
    System.out.println("[soak] " + String.format(format, args));
  }

  private static String firstLine(String text) {
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
