package io.deltacdf.connect.bench;

import io.deltacdf.connect.delta.testing.HugeCommitReader;
import io.deltacdf.connect.delta.testing.HugeCommitTable;
import io.deltacdf.connect.delta.testing.HugeDvCommitTable;
import io.deltacdf.connect.delta.testing.HugeLogReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The huge cases of the memory part, each read by a reader JVM at -Xmx256m (the feed alone, no
 * Kafka): catching up on a log of {@code --huge-log-versions} versions from version 0 (listings,
 * time, peak heap), one commit of {@code --huge-commit-files} file actions that removes every file
 * of a table and adds as many ({@link HugeCommitTable}), and one DELETE of {@code
 * --huge-dv-updates} deletion vector updates, each file removed and added again with one more row
 * deleted ({@link HugeDvCommitTable}; time, peak heap, peak RSS for both commits). The heap figures
 * come from the reader's GC log: the most heap in use before a collection, and the most left after
 * a full collection (what was live; a young collection leaves the old generation's garbage, so the
 * serial collector's old generation looks full between full collections).
 */
final class HugeRun {

  private static final String HEAP = "256m";
  private static final Pattern GC_AFTER = Pattern.compile("\\d+M->(\\d+)M\\(\\d+M\\)");

  private final BenchOptions options;
  private final Report report;

  HugeRun(BenchOptions options, Report report) {
    this.options = options;
    this.report = report;
  }

  void run() {
    String section = "Memory: reader at -Xmx" + HEAP + " (no Kafka)";
    Path tables = options.workDir().resolve("tables");
    int versions = options.hugeLogVersions();
    Path gcLog = gcLog("huge-log");
    Map<String, String> log =
        ChildJvm.run(
            System.getProperty("java.class.path"),
            jvmOptions(gcLog),
            options.workDir().resolve("logs/huge-log.log"),
            120,
            HugeLogReader.class.getName(),
            tables.resolve("huge-log-" + versions).toString(),
            Integer.toString(versions));
    report.add(
        section,
        String.format("catch up on %,d versions from version 0", versions),
        log.get("seconds") + " s",
        String.format(
            "%s listings (%s names listed, local disk); %s",
            log.get("lists"), log.get("listedEntries"), heap(gcLog, log)));

    int files = options.hugeCommitFiles();
    readCommit(
        section,
        "huge-commit",
        String.format("one commit of %,d file actions (remove all, add as many)", files),
        tables.resolve("huge-commit-" + files),
        table -> HugeCommitTable.create(table, files),
        HugeCommitTable.VERSION,
        (long) files * HugeCommitTable.ROWS_PER_FILE);
    int updates = options.hugeDvUpdates();
    readCommit(
        section,
        "huge-dv",
        String.format("one DELETE of %,d deletion vector updates", updates),
        tables.resolve("huge-dv-" + updates),
        table -> HugeDvCommitTable.create(table, updates),
        HugeDvCommitTable.VERSION,
        updates);
  }

  private interface TableWriter {
    void create(Path table) throws IOException;
  }

  /** Reads {@code version} of {@code table} (written first if absent): {@code rows} expected. */
  private void readCommit(
      String section,
      String name,
      String what,
      Path table,
      TableWriter writer,
      long version,
      long rows) {
    try {
      if (!Files.exists(table)) {
        writer.create(table);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path gcLog = gcLog(name);
    Map<String, String> commit =
        ChildJvm.run(
            System.getProperty("java.class.path"),
            jvmOptions(gcLog),
            options.workDir().resolve("logs/" + name + ".log"),
            240,
            HugeCommitReader.class.getName(),
            table.toString(),
            Long.toString(version),
            "0");
    report.checkCount(what, Long.parseLong(commit.get("rows")), rows);
    report.add(
        section,
        what,
        commit.get("seconds") + " s",
        String.format("%s rows; %s", commit.get("rows"), heap(gcLog, commit)));
  }

  private Path gcLog(String name) {
    return options.workDir().resolve("logs/gc-" + name + "-" + System.nanoTime() + ".log");
  }

  private static List<String> jvmOptions(Path gcLog) {
    return List.of("-Xmx" + HEAP, "-XX:+UseSerialGC", "-Xlog:gc:file=" + gcLog);
  }

  private static String heap(Path gcLog, Map<String, String> results) {
    FullCollections full = fullCollections(gcLog);
    return String.format(
        "%d MiB peak heap in use; %s; peak RSS %s MiB",
        MemoryRun.peakHeapInUse(gcLog),
        full.count() == 0
            ? "no full collection"
            : String.format(
                "%d full collections left at most %d MiB", full.count(), full.mostLeftMib()),
        results.get("peakRssMib"));
  }

  /** How many full collections a GC log shows, and the most heap in use after one. */
  private record FullCollections(long count, long mostLeftMib) {}

  private static FullCollections fullCollections(Path gcLog) {
    long count = 0;
    long most = 0;
    try {
      for (String line : Files.readAllLines(gcLog)) {
        Matcher m = GC_AFTER.matcher(line);
        if (line.contains("Pause Full") && m.find()) {
          count++;
          most = Math.max(most, Long.parseLong(m.group(1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new FullCollections(count, most);
  }
}
