package io.deltacdf.connect.demo;

import static io.deltacdf.connect.testing.SparkHarness.sql;

import io.deltacdf.connect.testing.Folders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Writes the demo's Delta table with Spark (demo.sh runs it from the test classpath).
 *
 * <pre>
 *   create &lt;path&gt;   a new CDF-enabled customers table with three rows (versions 0 and 1)
 *   mutate &lt;path&gt;   two inserts, an update and a delete: four more commit versions
 * </pre>
 */
public final class DemoTable {

  private DemoTable() {}

  public static void main(String[] args) {
    if (args.length != 2 || !(args[0].equals("create") || args[0].equals("mutate"))) {
      System.err.println("usage: DemoTable create|mutate <table path>");
      System.exit(2);
    }
    Path path = Path.of(args[1]).toAbsolutePath().normalize();
    try {
      if (args[0].equals("create")) {
        create(path);
      } else {
        mutate(path);
      }
    } catch (RuntimeException e) {
      System.err.println("DemoTable " + args[0] + " " + path + " failed: " + e);
      e.printStackTrace();
      System.exit(1);
    }
    // Spark leaves non-daemon threads behind.
    System.exit(0);
  }

  public static void create(Path path) {
    replaceable(path);
    Folders.deleteRecursively(path);
    String table = table(path);
    sql(
        "CREATE TABLE %s (id BIGINT, name STRING, email STRING, country STRING,"
            + " updated_at TIMESTAMP) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        table);
    sql(
        "INSERT INTO %s VALUES"
            + " (1, 'Ada Lovelace', 'ada@example.com', 'GB', TIMESTAMP'2024-01-01 09:00:00'),"
            + " (2, 'Alan Turing', 'alan@example.com', 'GB', TIMESTAMP'2024-01-01 09:05:00'),"
            + " (3, 'Grace Hopper', 'grace@example.com', 'US', TIMESTAMP'2024-01-01 09:10:00')",
        table);
    System.out.println("Created " + path + ": customers 1-3 (versions 0-1), change data feed on");
  }

  public static void mutate(Path path) {
    if (!Files.isDirectory(path.resolve("_delta_log"))) {
      throw new IllegalArgumentException(path + " is not a Delta table (no _delta_log)");
    }
    String table = table(path);
    sql(
        "INSERT INTO %s VALUES"
            + " (4, 'Edsger Dijkstra', 'edsger@example.com', 'NL', current_timestamp()),"
            + " (5, 'Barbara Liskov', 'barbara@example.com', 'US', current_timestamp())",
        table);
    sql(
        "INSERT INTO %s VALUES (6, 'Donald Knuth', 'don@example.com', 'US', current_timestamp())",
        table);
    sql(
        "UPDATE %s SET email = 'ada.lovelace@example.org', updated_at = current_timestamp()"
            + " WHERE id = 1",
        table);
    sql("DELETE FROM %s WHERE id = 2", table);
    System.out.println("Mutated " + path + ": inserted 4, 5 and 6, updated 1 (email), deleted 2");
  }

  private static String table(Path path) {
    return "delta.`" + path.toString().replace("`", "``") + "`";
  }

  /** Only an absent or empty folder, or an existing Delta table, may be (re)created. */
  private static void replaceable(Path path) {
    if (!Files.exists(path) || Files.isDirectory(path.resolve("_delta_log"))) {
      return;
    }
    try (Stream<Path> entries = Files.list(path)) {
      if (entries.findAny().isPresent()) {
        throw new IllegalArgumentException(
            path + " exists and is not a Delta table: refusing to overwrite it");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
