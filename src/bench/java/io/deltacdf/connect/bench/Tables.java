package io.deltacdf.connect.bench;

import io.deltacdf.connect.testing.Folders;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The benchmark's Delta tables, written by {@code BenchTables} in a Spark JVM and kept under the
 * work folder: a table whose parameters are unchanged is reused by the next run (delete the folder
 * to write it again). Tables that runs modify are written fresh each time.
 */
final class Tables {

  /** A written table and what Spark's change feed reader counts in it from version 0. */
  record Table(Path path, Map<String, String> counts) {
    long cdfRows() {
      return Long.parseLong(counts.get("cdf_rows"));
    }
  }

  private static final String DONE = "bench-table.properties";

  private final Path dir;
  private final Jvms jvms;

  Tables(Path dir, Jvms jvms) {
    this.dir = dir;
    this.jvms = jvms;
  }

  Table customers(long rows, boolean deletionVectors) {
    return cached(
        "customers-" + rows + (deletionVectors ? "-dv" : ""),
        "customers",
        Long.toString(rows),
        Boolean.toString(deletionVectors));
  }

  /** The customers table without deletion vectors, with row tracking on from its creation. */
  Table customersWithRowTracking(long rows) {
    return cached(
        "customers-" + rows + "-row-tracking", "customers", Long.toString(rows), "false", "true");
  }

  /** {@code rows} rows of 100 columns in two commits, then an UPDATE of every tenth row. */
  Table wide(long rows) {
    return cached("wide-" + rows, "wide", Long.toString(rows));
  }

  /** One commit of {@code rows} rows in 8 files. */
  Table snapshot(long rows) {
    return cached("snapshot-" + rows, "snapshot", Long.toString(rows), "8");
  }

  /** One commit of {@code rows} rows in {@code files} files, for snapshot slices to share. */
  Table snapshot(long rows, int files) {
    return cached(
        "snapshot-" + rows + "-" + files + "-files",
        "snapshot",
        Long.toString(rows),
        Integer.toString(files));
  }

  Table singleCommit(long rows) {
    return cached("single-commit-" + rows, "single-commit", Long.toString(rows));
  }

  Table longLog(int versions) {
    return cached("log-" + versions, "long-log", Integer.toString(versions));
  }

  /** A fresh table with {@code rows} rows in one commit, for a run that appends to it. */
  Table fresh(String name, long rows) {
    Path path = dir.resolve(name + "-" + System.currentTimeMillis());
    return new Table(path, write(path, "single-commit", Long.toString(rows)));
  }

  /** Appends {@code commits} commits of {@code rows} rows, {@code pauseMs} apart. */
  void appendSmallCommits(Table table, int commits, int rows, long pauseMs) {
    jvms.runSpark(
        dir.resolve("logs/small-commits.log"),
        "1g",
        30,
        "io.deltacdf.connect.bench.spark.BenchTables",
        "small-commits",
        table.path().toString(),
        Integer.toString(commits),
        Integer.toString(rows),
        Long.toString(pauseMs));
  }

  private Table cached(String name, String command, String... args) {
    Path path = dir.resolve(name);
    Path done = path.resolve(DONE);
    try {
      if (Files.isRegularFile(done)) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(done)) {
          properties.load(reader);
        }
        System.out.println("[bench] reusing table " + path);
        Map<String, String> counts = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> counts.put(k, properties.getProperty(k)));
        return new Table(path, Map.copyOf(counts));
      }
      Folders.deleteRecursively(path);
      Map<String, String> counts = write(path, command, args);
      Properties properties = new Properties();
      properties.putAll(counts);
      try (Writer writer = Files.newBufferedWriter(done)) {
        properties.store(writer, "written by BenchTables " + command);
      }
      return new Table(path, counts);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Map<String, String> write(Path path, String command, String... args) {
    System.out.println("[bench] writing table " + path);
    List<String> all = new ArrayList<>(List.of(command, path.toString()));
    all.addAll(List.of(args));
    long start = System.nanoTime();
    Map<String, String> results =
        jvms.runSpark(
            dir.resolve("logs/table-" + path.getFileName() + ".log"),
            "2g",
            60,
            "io.deltacdf.connect.bench.spark.BenchTables",
            all.toArray(String[]::new));
    System.out.printf(
        "[bench] wrote %s in %d s%n",
        path.getFileName(), (System.nanoTime() - start) / 1_000_000_000);
    return results;
  }
}
