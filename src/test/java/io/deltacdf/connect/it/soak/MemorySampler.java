package io.deltacdf.connect.it.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Samples the resident set ({@code VmRSS} of {@code /proc/<pid>/status}) and the used heap ({@code
 * jstat -gc}: survivors + eden + old) of every worker JVM at a fixed interval.
 */
final class MemorySampler implements AutoCloseable {

  /** One worker JVM at one moment; {@code heapMib} is -1 when jstat could not read it. */
  record Sample(long secondsIn, String worker, long pid, long rssMib, long heapMib) {}

  /** A worker JVM to sample: its name in the soak (A, B) and its process id. */
  record Target(String worker, long pid) {}

  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private final long startNanos = System.nanoTime();
  private volatile boolean closed;

  MemorySampler(Supplier<List<Target>> targets, Duration interval) {
    thread =
        new Thread(
            () -> {
              while (!closed) {
                for (Target target : targets.get()) {
                  sample(target);
                }
                sleep(interval);
              }
            },
            "soak-memory-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void sample(Target target) {
    long rss = rssMib(target.pid());
    if (rss < 0) {
      return; // the JVM is gone (killed) since the targets were listed
    }
    Sample sample =
        new Sample(
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos),
            target.worker(),
            target.pid(),
            rss,
            heapMib(target.pid()));
    synchronized (samples) {
      samples.add(sample);
    }
  }

  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  private static long rssMib(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  /** Survivor, eden and old space in use, from {@code jstat -gc <pid>} (no attach needed). */
  private static long heapMib(long pid) {
    try {
      Process jstat =
          new ProcessBuilder("jstat", "-gc", Long.toString(pid)).redirectErrorStream(true).start();
      List<String> lines = new String(jstat.getInputStream().readAllBytes()).lines().toList();
      if (!jstat.waitFor(10, TimeUnit.SECONDS) || lines.size() < 2) {
        return -1;
      }
      List<String> names = Arrays.asList(lines.get(0).trim().split("\\s+"));
      String[] values = lines.get(1).trim().split("\\s+");
      double kib = 0;
      for (String column : List.of("S0U", "S1U", "EU", "OU")) {
        kib += Double.parseDouble(values[names.indexOf(column)]);
      }
      return (long) (kib / 1024);
    } catch (IOException | RuntimeException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static void sleep(Duration interval) {
    try {
      Thread.sleep(interval.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
