package io.deltacdf.connect.bench.spark;

import io.deltacdf.connect.bench.ChildJvm;
import io.deltacdf.connect.bench.ProcStatus;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The job we compare against: Spark Structured Streaming reads a table's change data feed from
 * version 0 and writes every change row to Kafka with Spark's Kafka sink, trigger availableNow,
 * then stops. Records look like ours: JSON key {@code {"id":…}}, JSON value of the table's columns,
 * and the three change-metadata headers.
 *
 * <p>Arguments: table path, bootstrap servers, topic, checkpoint folder, passes (the last is timed;
 * each earlier one writes the whole feed to {@code <topic>-warm} first, in the same session, to
 * warm up the JIT), then producer settings as {@code key=value} (passed as {@code kafka.key}).
 */
public final class SparkCdfToKafka {

  private static final String[] METADATA = {"_change_type", "_commit_version", "_commit_timestamp"};

  private SparkCdfToKafka() {}

  public static void main(String[] args) throws Exception {
    long jvmStart = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
    SparkSession spark = BenchSpark.start("bench-spark-cdf");
    Map<String, String> producer =
        Arrays.stream(args, 5, args.length)
            .map(kv -> kv.split("=", 2))
            .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
    int passes = Integer.parseInt(args[4]);
    for (int pass = 1; pass < passes; pass++) {
      run(spark, args[0], args[1], args[2] + "-warm", args[3] + "-warm-" + pass, producer);
    }
    long queryStart = System.currentTimeMillis();
    long cpuAtQueryStart = ProcStatus.ownCpuMillis();
    run(spark, args[0], args[1], args[2], args[3], producer);
    long end = System.currentTimeMillis();
    long cpuAtEnd = ProcStatus.ownCpuMillis();
    ChildJvm.result("jvm_start_ms", jvmStart);
    ChildJvm.result("query_start_ms", queryStart);
    ChildJvm.result("end_ms", end);
    ChildJvm.result("peak_rss_mib", ProcStatus.ownPeakRssMib());
    ChildJvm.result("query_cpu_ms", cpuAtEnd - cpuAtQueryStart);
    ChildJvm.result("jvm_cpu_ms", cpuAtEnd);
    System.exit(0);
  }

  /** One availableNow query over the whole feed into {@code topic}. */
  private static void run(
      SparkSession spark,
      String table,
      String bootstrapServers,
      String topic,
      String checkpoint,
      Map<String, String> producer)
      throws Exception {
    Dataset<Row> changes =
        spark
            .readStream()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", 0)
            .load(table);
    Column[] dataColumns =
        Arrays.stream(changes.columns())
            .filter(c -> !Arrays.asList(METADATA).contains(c))
            .map(functions::col)
            .toArray(Column[]::new);
    Column[] headers =
        Arrays.stream(METADATA)
            .map(
                h ->
                    functions.struct(
                        functions.lit(h).as("key"),
                        functions.col(h).cast("string").cast("binary").as("value")))
            .toArray(Column[]::new);
    var writer =
        changes
            .select(
                functions.to_json(functions.struct(functions.col("id"))).as("key"),
                functions.to_json(functions.struct(dataColumns)).as("value"),
                functions.array(headers).as("headers"))
            .writeStream()
            .format("kafka")
            .option("kafka.bootstrap.servers", bootstrapServers)
            .option("topic", topic)
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.AvailableNow());
    for (Map.Entry<String, String> setting : producer.entrySet()) {
      writer = writer.option("kafka." + setting.getKey(), setting.getValue());
    }
    StreamingQuery query = writer.start();
    query.awaitTermination();
  }
}
