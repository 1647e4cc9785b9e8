package io.deltacdf.connect.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** The figures of a run, printed as one table at the end, and what failed. */
final class Report {

  /** One measured figure. */
  record Figure(String section, String name, String value, String note) {}

  private final List<Figure> figures = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  void add(String section, String name, String value, String note) {
    figures.add(new Figure(section, name, value, note));
    System.out.printf("[bench] %s / %s: %s %s%n", section, name, value, note);
  }

  void fail(String failure) {
    failures.add(failure);
    System.out.println("[bench] FAILED: " + failure);
  }

  /** Checks a record count; a mismatch is a failure. */
  void checkCount(String what, long actual, long expected) {
    if (actual != expected) {
      fail(what + ": " + actual + " records, expected " + expected);
    }
  }

  boolean failed() {
    return !failures.isEmpty();
  }

  void print(PrintStream out, String header) {
    int nameWidth = figures.stream().mapToInt(f -> f.name().length()).max().orElse(10);
    int valueWidth = figures.stream().mapToInt(f -> f.value().length()).max().orElse(10);
    out.println();
    out.println(header);
    String section = null;
    for (Figure figure : figures) {
      if (!figure.section().equals(section)) {
        section = figure.section();
        out.println();
        out.println("== " + section);
      }
      out.printf(
          "  %-" + nameWidth + "s  %" + valueWidth + "s  %s%n",
          figure.name(),
          figure.value(),
          figure.note());
    }
    out.println();
    if (failures.isEmpty()) {
      out.println("All counts matched; nothing failed.");
    } else {
      out.println("FAILED:");
      failures.forEach(f -> out.println("  - " + f));
    }
  }

  static String rate(long rows, long millis) {
    return String.format("%,.0f rows/s", rows * 1000.0 / Math.max(1, millis));
  }

  /** The nearest-rank percentile of sorted values. */
  static long percentile(long[] sorted, int percent) {
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  static String ratio(double a, double b) {
    return String.format("%.2f", a / b);
  }

  /** CPU-seconds per million rows of {@code cpuMillis} spent on {@code rows} rows. */
  static double cpuSecondsPerMillion(long cpuMillis, long rows) {
    return cpuMillis / 1000.0 * 1_000_000.0 / Math.max(1, rows);
  }

  /** CPU-seconds, e.g. per million rows. */
  static String seconds(double seconds) {
    return String.format("%.1f CPU-s", seconds);
  }
}
