package io.deltacdf.connect.bench.spark;

import io.deltacdf.connect.bench.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Writes the benchmark's Delta tables with Spark, in a JVM of its own (run from the Spark runtime
 * classpath, see benchmark/spark-runtime/pom.xml):
 *
 * <pre>
 *   customers &lt;path&gt; &lt;rows&gt; &lt;dv:true|false&gt;  inserts in 4 commits, UPDATE 20%, DELETE 5%
 *   single-commit &lt;path&gt; &lt;rows&gt;        one commit of &lt;rows&gt; rows in one file
 *   snapshot &lt;path&gt; &lt;rows&gt; &lt;files&gt;   one commit of &lt;rows&gt; rows in &lt;files&gt; files
 *   small-commits &lt;path&gt; &lt;n&gt; &lt;rows&gt; &lt;pauseMs&gt;   n appends of &lt;rows&gt; rows (table exists)
 *   long-log &lt;path&gt; &lt;versions&gt;          see {@link LongLog}
 * </pre>
 *
 * Prints the expected change feed row count ({@code cdf_rows}) where it creates a table.
 */
public final class BenchTables {

  /** A customer table of ~12 columns: strings, decimals, timestamps, a date, a boolean. */
  static final String COLUMNS =
      "id BIGINT, name STRING, email STRING, country STRING,"
          + " city STRING, segment STRING, balance DECIMAL(18,2), credit_limit DECIMAL(12,2),"
          + " active BOOLEAN, birth_date DATE, created_at TIMESTAMP, updated_at TIMESTAMP";

  private BenchTables() {}

  public static void main(String[] args) throws IOException {
    SparkSession spark = BenchSpark.start("bench-tables");
    String path = Path.of(args[1]).toAbsolutePath().toString();
    switch (args[0]) {
      case "customers" ->
          customers(
              spark,
              path,
              Long.parseLong(args[2]),
              Boolean.parseBoolean(args[3]),
              args.length > 4 && Boolean.parseBoolean(args[4]));
      case "single-commit" -> {
        create(spark, path, false);
        append(spark, path, 0, Long.parseLong(args[2]), 1);
        countChanges(spark, path);
      }
      case "snapshot" -> {
        create(spark, path, false);
        append(spark, path, 0, Long.parseLong(args[2]), Integer.parseInt(args[3]));
        ChildJvm.result("cdf_rows", Long.parseLong(args[2]));
      }
      case "small-commits" ->
          smallCommits(
              spark,
              path,
              Integer.parseInt(args[2]),
              Integer.parseInt(args[3]),
              Long.parseLong(args[4]));
      case "long-log" -> new LongLog(spark, path).write(Integer.parseInt(args[2]));
      case "wide" -> wide(spark, path, Long.parseLong(args[2]));
      case "read-feed" -> readFeed(spark, path, List.of(args[2].split(",")));
      default -> throw new IllegalArgumentException("Unknown command " + args[0]);
    }
    // Spark leaves non-daemon threads behind.
    System.exit(0);
  }

  static void create(SparkSession spark, String path, boolean deletionVectors) {
    create(spark, path, deletionVectors, false);
  }

  static void create(
      SparkSession spark, String path, boolean deletionVectors, boolean rowTracking) {
    spark
        .sql(
            "CREATE TABLE delta.`"
                + path
                + "` ("
                + COLUMNS
                + ") USING delta TBLPROPERTIES ("
                + "'delta.enableChangeDataFeed'='true',"
                + " 'delta.enableDeletionVectors'='"
                + deletionVectors
                + "', 'delta.enableRowTracking'='"
                + rowTracking
                + "')")
        .collect();
  }

  /** Appends rows with ids [from, to) in {@code files} files, as one commit. */
  static void append(SparkSession spark, String path, long from, long to, int files) {
    rows(spark, from, to, files).write().format("delta").mode("append").save(path);
  }

  static Dataset<Row> rows(SparkSession spark, long from, long to, int files) {
    return spark
        .range(from, to, 1, files)
        .selectExpr(
            "id",
            "concat('Customer ', id) AS name",
            "concat('customer.', id, '@example.com') AS email",
            "element_at(array('DE','FR','GB','US','NL','ES','IT','PL'), CAST(id % 8 AS INT) + 1)"
                + " AS country",
            "concat('City ', id % 1000) AS city",
            "element_at(array('retail','smb','enterprise'), CAST(id % 3 AS INT) + 1) AS segment",
            "CAST((id * 37 % 1000000) / 100 AS DECIMAL(18,2)) AS balance",
            "CAST((id % 50) * 1000 AS DECIMAL(12,2)) AS credit_limit",
            "id % 10 <> 0 AS active",
            "date_add(DATE'1950-01-01', CAST(id % 20000 AS INT)) AS birth_date",
            "timestamp_seconds(1600000000 + id) AS created_at",
            "timestamp_seconds(1700000000 + id) AS updated_at");
  }

  private static void customers(
      SparkSession spark, String path, long rows, boolean dv, boolean rowTracking) {
    create(spark, path, dv, rowTracking);
    int commits = 4;
    for (int i = 0; i < commits; i++) {
      append(spark, path, rows * i / commits, rows * (i + 1) / commits, 4);
    }
    spark
        .sql(
            "UPDATE delta.`"
                + path
                + "` SET balance = balance + 1,"
                + " updated_at = current_timestamp() WHERE id % 5 = 0")
        .collect();
    spark.sql("DELETE FROM delta.`" + path + "` WHERE id % 20 = 1").collect();
    countChanges(spark, path);
  }

  /** Columns of the wide table: id, then 33 strings, 33 longs and 33 doubles (c1 to c99). */
  public static final int WIDE_COLUMNS = 100;

  private static void wide(SparkSession spark, String path, long rows) {
    StringBuilder ddl = new StringBuilder("id BIGINT");
    List<String> select = new java.util.ArrayList<>(List.of("id"));
    for (int c = 1; c < WIDE_COLUMNS; c++) {
      switch (c % 3) {
        case 0 -> {
          ddl.append(", c").append(c).append(" STRING");
          select.add("concat('value ', id * " + c + ", ' of column " + c + "') AS c" + c);
        }
        case 1 -> {
          ddl.append(", c").append(c).append(" BIGINT");
          select.add("id * " + c + " AS c" + c);
        }
        default -> {
          ddl.append(", c").append(c).append(" DOUBLE");
          select.add("CAST(id AS DOUBLE) / " + c + " AS c" + c);
        }
      }
    }
    spark
        .sql(
            "CREATE TABLE delta.`"
                + path
                + "` ("
                + ddl
                + ") USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
                + " 'delta.enableDeletionVectors'='false')")
        .collect();
    for (int half = 0; half < 2; half++) {
      spark
          .range(rows * half / 2, rows * (half + 1) / 2, 1, 4)
          .selectExpr(select.toArray(String[]::new))
          .write()
          .format("delta")
          .mode("append")
          .save(path);
    }
    spark.sql("UPDATE delta.`" + path + "` SET c1 = c1 + 1 WHERE id % 10 = 0").collect();
    countChanges(spark, path);
  }

  /**
   * Spark's batch change feed reader over every version, the rows of {@code columns} (or every
   * column for {@code *}) materialized and dropped (the noop sink), timed after one warm-up pass.
   */
  private static void readFeed(SparkSession spark, String path, List<String> columns) {
    Runnable pass =
        () -> {
          Dataset<Row> feed =
              spark
                  .read()
                  .format("delta")
                  .option("readChangeFeed", "true")
                  .option("startingVersion", 0)
                  .load(path);
          if (!columns.equals(List.of("*"))) {
            List<String> selected = new java.util.ArrayList<>(columns);
            selected.addAll(List.of("_change_type", "_commit_version", "_commit_timestamp"));
            feed = feed.selectExpr(selected.toArray(String[]::new));
          }
          feed.write().format("noop").mode("overwrite").save();
        };
    pass.run();
    long start = System.nanoTime();
    pass.run();
    ChildJvm.result("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
  }

  /** The oracle: how many rows Spark's own change feed reader yields from version 0. */
  private static void countChanges(SparkSession spark, String path) {
    List<Row> counts =
        spark
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 0)
            .load(path)
            .groupBy("_change_type")
            .count()
            .collectAsList();
    long total = 0;
    for (Row row : counts) {
      ChildJvm.result("cdf_" + row.getString(0), row.getLong(1));
      total += row.getLong(1);
    }
    ChildJvm.result("cdf_rows", total);
  }

  private static void smallCommits(
      SparkSession spark, String path, int commits, int rows, long pauseMs) {
    long base = spark.read().format("delta").load(path).count();
    for (int i = 0; i < commits; i++) {
      long from = base + (long) i * rows;
      // One file per commit, as a streaming writer's micro-batches do.
      append(spark, path, from, from + rows, 1);
      sleep(pauseMs);
    }
    ChildJvm.result("commits", commits);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
