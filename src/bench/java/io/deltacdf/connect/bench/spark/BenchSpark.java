package io.deltacdf.connect.bench.spark;

import org.apache.spark.sql.SparkSession;

/** The SparkSession of the benchmark's Spark JVMs: local, all cores, Spark's normal settings. */
final class BenchSpark {

  private BenchSpark() {}

  static SparkSession start(String appName) {
    return SparkSession.builder()
        .appName(appName)
        // All cores: what a user gives a single-node Spark job on this machine.
        .master("local[*]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config(
            "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.catalogImplementation", "in-memory")
        .config("spark.sql.session.timeZone", "UTC")
        // Two cores: the default 200 shuffle partitions would be pure overhead (UPDATE/DELETE).
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.databricks.delta.snapshotPartitions", "2")
        .getOrCreate();
  }
}
