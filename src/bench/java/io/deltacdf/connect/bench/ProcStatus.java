package io.deltacdf.connect.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a process's peak resident set size (VmHWM) from Linux's /proc. */
public final class ProcStatus {

  private ProcStatus() {}

  /** Peak RSS of {@code pid} in MiB, or -1 where /proc is not available (not Linux). */
  public static long peakRssMib(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Gone or not Linux: reported as unknown.
    }
    return -1;
  }

  /**
   * CPU time (user + system, all threads) that process {@code pid} has used so far, in
   * milliseconds: on Linux the JDK reads it from {@code /proc/<pid>/stat}. -1 when unknown.
   */
  public static long cpuMillis(long pid) {
    return ProcessHandle.of(pid)
        .flatMap(process -> process.info().totalCpuDuration())
        .map(java.time.Duration::toMillis)
        .orElse(-1L);
  }

  /** CPU time this JVM has used so far, in milliseconds (see {@link #cpuMillis}). */
  public static long ownCpuMillis() {
    return cpuMillis(ProcessHandle.current().pid());
  }

  /** Peak RSS of this JVM in MiB. */
  public static long ownPeakRssMib() {
    return peakRssMib(ProcessHandle.current().pid());
  }
}
