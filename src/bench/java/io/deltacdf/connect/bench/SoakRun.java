package io.deltacdf.connect.bench;

import io.deltacdf.connect.it.soak.Fault;
import io.deltacdf.connect.it.soak.Soak;
import io.deltacdf.connect.it.soak.SoakResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code ./benchmark.sh soak}: {@link Soak} for {@code --minutes}, in this (driver) JVM, which runs
 * Spark and the broker while the two workers run in JVMs of their own. Its figures go into the
 * report; a row lost, repeated or out of order fails the run.
 */
final class SoakRun {

  private final BenchOptions options;
  private final Report report;

  SoakRun(BenchOptions options, Report report) {
    this.options = options;
    this.report = report;
  }

  void run() {
    Path dir = options.workDir().resolve("soak-" + System.currentTimeMillis());
    SoakResult result =
        Soak.run(
            new Soak.Options(
                Duration.ofMinutes(options.soakMinutes()),
                options.soakSeed(),
                dir,
                Duration.ofSeconds(options.soakFaultIntervalSeconds()),
                Duration.ofMinutes(5),
                List.of(Fault.values())));
    result.figures().forEach(f -> report.add("soak", f.name(), f.value(), f.note()));
    result.failures().forEach(f -> report.fail("soak: " + f));
    try {
      Files.writeString(dir.resolve("memory.csv"), result.memoryCsv());
      Files.write(dir.resolve("events.txt"), result.events());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    System.out.println("[bench] soak: events, memory.csv, worker logs and tables in " + dir);
  }
}
