package io.deltacdf.connect.testing;

import org.apache.spark.sql.SparkSession;

/**
 * The process-wide local SparkSession with Delta, used as reference writer and oracle.
 *
 * <p>Started on first use and never stopped: a JVM holds one SparkContext, and restarting it per
 * test class would cost seconds each time.
 */
public final class SparkHarness {

  private SparkHarness() {}

  private static final class Holder {
    static final SparkSession SPARK = start();
  }

  public static SparkSession spark() {
    return Holder.SPARK;
  }

  /**
   * Runs one SQL statement built with {@link String#format}, failing on error. Without args the
   * statement is taken verbatim, so a {@code %} in it (modulo) needs no escaping.
   */
  public static void sql(String fmt, Object... args) {
    String statement = args.length == 0 ? fmt : String.format(fmt, args);
    spark().sql(statement).collect();
  }

  private static SparkSession start() {
    return SparkSession.builder()
        .appName("delta-cdf-tests")
        .master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config(
            "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        // Path tables only: no Hive metastore, no warehouse.
        .config("spark.sql.catalogImplementation", "in-memory")
        // Rows carry Instant / LocalDate / LocalDateTime, the types of our value model.
        .config("spark.sql.datetime.java8API.enabled", "true")
        .config("spark.sql.session.timeZone", "UTC")
        // Tiny tables on one core: every extra partition or task is pure overhead.
        .config("spark.default.parallelism", "1")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.adaptive.enabled", "false")
        // Compiling generated code costs more than it saves on tens of rows (~35% of run time).
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
        .config("spark.databricks.delta.snapshotPartitions", "1")
        // MERGE would otherwise persist its (deterministic, inline) source before running.
        .config("spark.databricks.delta.merge.materializeSource", "none")
        .getOrCreate();
  }
}
