package io.deltacdf.connect.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Samples the live heap of another JVM: {@code jcmd <pid> GC.class_histogram} runs a full GC first,
 * so its total is what is still reachable, unlike the heap in use, which a collector lets grow up
 * to -Xmx before collecting. Costs the sampled JVM one full GC per sample.
 */
final class LiveHeapSampler implements AutoCloseable {

  private static final long INTERVAL_MS = 3_000;

  private final long pid;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile long maxBytes;

  LiveHeapSampler(long pid) {
    this.pid = pid;
    this.thread = new Thread(this::sample, "live-heap-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  /** The largest live heap seen, in MiB. */
  long maxMib() {
    return maxBytes / (1024 * 1024);
  }

  private void sample() {
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    while (running) {
      try {
        Process process =
            new ProcessBuilder(jcmd, Long.toString(pid), "GC.class_histogram")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        for (String line : output.split("\n")) {
          if (line.startsWith("Total ")) {
            String[] parts = line.trim().split("\\s+");
            maxBytes = Math.max(maxBytes, Long.parseLong(parts[2]));
          }
        }
        Thread.sleep(INTERVAL_MS);
      } catch (IOException e) {
        return; // no jcmd: the figure stays 0
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
