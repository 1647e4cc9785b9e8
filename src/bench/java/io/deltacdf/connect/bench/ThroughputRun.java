package io.deltacdf.connect.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * End-to-end throughput on one table: our connector, Spark's change feed stream and three ceilings
 * (our reader without Kafka, a plain producer, Connect's converters and producer without reading),
 * with the record counts checked.
 */
final class ThroughputRun {

  private static final int BATCH_ROWS = 10_000; // the connector's batch.max.rows default
  private static final int CORES = Runtime.getRuntime().availableProcessors();

  private final BenchOptions options;
  private final Jvms jvms;
  private final Tables tables;
  private final Report report;

  ThroughputRun(BenchOptions options, Jvms jvms, Tables tables, Report report) {
    this.options = options;
    this.jvms = jvms;
    this.tables = tables;
    this.report = report;
  }

  void run(boolean deletionVectors) {
    String variant = deletionVectors ? "dv" : "plain";
    String section =
        String.format(
            "Throughput: %,d rows inserted, UPDATE 20%%, DELETE 5%%%s",
            options.rows(), deletionVectors ? ", deletion vectors" : "");
    Tables.Table table = tables.customers(options.rows(), deletionVectors);
    long expected = table.cdfRows();
    report.add(
        section,
        "change rows (Spark batch count)",
        String.format("%,d", expected),
        table.counts().toString());
    Path logs = options.workDir().resolve("logs");

    Map<String, String> kernel =
        jvms.runTest(
            logs.resolve("kernel-read-" + variant + ".log"),
            "1g",
            KernelRead.class.getName(),
            table.path().toString(),
            Integer.toString(BATCH_ROWS),
            Integer.toString(passes()));
    long kernelRows = Long.parseLong(kernel.get("rows"));
    long kernelMs = Long.parseLong(kernel.get("elapsed_ms"));
    report.checkCount("our reader (" + variant + ")", kernelRows, expected);
    report.add(
        section,
        "ceiling: our reader, no Kafka",
        Report.rate(kernelRows, kernelMs),
        kernelMs + " ms, peak RSS " + kernel.get("peak_rss_mib") + " MiB");
    long kernelCpuMs = Long.parseLong(kernel.get("cpu_ms"));
    double readerCpu = Report.cpuSecondsPerMillion(kernelCpuMs, kernelRows);
    report.add(
        section,
        "ceiling: our reader, CPU per million rows",
        Report.seconds(readerCpu),
        kernelCpuMs + " ms of the reader JVM's CPU (/proc) in the timed pass");

    List<String> workerJvm = new ArrayList<>(List.of("-Xmx" + options.workerHeap()));
    if (options.profile()) {
      workerJvm.add(
          "-XX:StartFlightRecording=settings=profile,filename="
              + logs.resolve("worker-" + variant + ".jfr"));
    }
    try (BenchKafka kafka = new BenchKafka(workerJvm, options.producer())) {
      String ours = "ours-" + variant;
      ConnectorFigures struct =
          runOurs(kafka, ours, connectorConfig(table, ours), "", variant, expected, section);
      List<ConsumerRecord<byte[], byte[]>> sample = kafka.topics().sample(ours, 2_000);
      report.add(
          section,
          "ours: worker JVM peak RSS",
          kafka.workerPeakRssMib() + " MiB",
          "-Xmx" + options.workerHeap() + ", incl. the worker's own start");
      String oursJson = "ours-json-" + variant;
      ConnectorFigures json =
          runOurs(
              kafka,
              oursJson,
              jsonConnectorConfig(table, oursJson),
              " json",
              variant,
              expected,
              section);

      SparkRun spark = spark(kafka, table, variant, expected, section, logs);
      double sparkRate = spark.rowsPerSecond();

      String producerTopic = "producer-" + variant;
      if (!options.cold()) {
        ProducerCeiling.run(
            kafka.topics(), producerTopic + "-warm", expected, sample, options.producer());
        kafka.topics().delete(producerTopic + "-warm");
      }
      ProducerCeiling.Run producer =
          ProducerCeiling.run(kafka.topics(), producerTopic, expected, sample, options.producer());
      long producerMs = producer.millis();
      double producerCpu = Report.cpuSecondsPerMillion(producer.cpuMillis(), expected);
      report.checkCount(
          "ceiling producer (" + variant + ")", kafka.topics().count(producerTopic), expected);
      double producerRate = expected * 1000.0 / Math.max(1, producerMs);
      report.add(
          section,
          "ceiling: plain KafkaProducer",
          Report.rate(expected, producerMs),
          producerMs + " ms, same records, same producer settings");
      report.add(
          section,
          "ceiling: plain KafkaProducer, CPU per million rows",
          Report.seconds(producerCpu),
          "the driver JVM's CPU (/proc) while sending");

      String connectTopic = "connect-" + variant;
      if (!options.cold()) {
        ConnectCeiling.run(
            kafka.topics(),
            connectTopic + "-warm",
            expected,
            table.path().toString(),
            connectorConfig(table, connectTopic),
            options.producer());
        kafka.topics().delete(connectTopic + "-warm");
      }
      ProducerCeiling.Run connect =
          ConnectCeiling.run(
              kafka.topics(),
              connectTopic,
              expected,
              table.path().toString(),
              connectorConfig(table, connectTopic),
              options.producer());
      long connectMs = connect.millis();
      report.checkCount(
          "ceiling Connect (" + variant + ")", kafka.topics().count(connectTopic), expected);
      double connectRate = expected * 1000.0 / Math.max(1, connectMs);
      report.add(
          section,
          "ceiling: Connect's converters + producer",
          Report.rate(expected, connectMs),
          connectMs + " ms, our records cycled: JsonConverter, header converter, send");
      double connectCpu = Report.cpuSecondsPerMillion(connect.cpuMillis(), expected);
      report.add(
          section,
          "ceiling: Connect's converters + producer, CPU per million rows",
          Report.seconds(connectCpu),
          connect.cpuMillis()
              + " ms of the driver JVM's CPU (/proc)"
              + " while converting and sending");

      report.add(
          section,
          "ratio ours / Spark",
          Report.ratio(struct.rowsPerSecond(), sparkRate),
          "target >= 2");
      report.add(
          section,
          "ratio ours json / Spark",
          Report.ratio(json.rowsPerSecond(), sparkRate),
          "target 2: >= 2");
      report.add(
          section,
          "ratio ours CPU / Spark CPU per row",
          Report.ratio(struct.cpuSecondsPerMillion(), spark.cpuSecondsPerMillion()),
          "target 3: <= 0.5");
      report.add(
          section,
          "ratio (reader + Connect ceiling) CPU / Spark CPU per row",
          Report.ratio(readerCpu + connectCpu, spark.cpuSecondsPerMillion()),
          "the least ours CPU / Spark CPU can be in struct mode: reading plus Connect's own work");
      // Whatever writes JSON must at least read (the reader ceiling) and send (the producer
      // ceiling), and the broker must append; on a machine whose cores are all busy that CPU
      // per row bounds the rate.
      double jsonFloorCpu = readerCpu + producerCpu + json.brokerCpuSecondsPerMillion();
      double jsonBound = CORES * 1_000_000.0 / jsonFloorCpu;
      report.add(
          section,
          "bound: cores / (reader + producer + broker) CPU per row",
          Report.rate((long) jsonBound, 1000),
          String.format(
              "%d cores / %.1f CPU-s per million rows: no JSON writer reading this table gets"
                  + " past it here",
              CORES, jsonFloorCpu));
      report.add(
          section,
          "ratio that bound / Spark",
          Report.ratio(jsonBound, sparkRate),
          "how far target 2 (json >= 2x Spark) is reachable on this machine");
      report.add(
          section,
          "ratio ours json CPU / Spark CPU per row",
          Report.ratio(json.cpuSecondsPerMillion(), spark.cpuSecondsPerMillion()),
          "output.format=json");
      report.add(
          section,
          "ratio ours / Connect ceiling",
          Report.ratio(struct.rowsPerSecond(), connectRate),
          "target 1: >= 0.8");
      report.add(
          section,
          "ratio ours / producer ceiling",
          Report.ratio(struct.rowsPerSecond(), producerRate),
          "target >= 0.5");
      report.add(
          section,
          "ratio Connect ceiling / Spark",
          Report.ratio(connectRate, sparkRate),
          "the most any connector could reach with these converters");
    }
  }

  /** Passes each writer makes over the feed: the last is measured, the first warms the JIT. */
  private int passes() {
    return options.cold() ? 1 : 2;
  }

  /**
   * Our connector in the shared worker, registered under {@code name} with {@code config}; in warm
   * mode an identical connector first writes the whole feed to a throw-away topic.
   */
  private ConnectorFigures runOurs(
      BenchKafka kafka,
      String name,
      Map<String, String> config,
      String label,
      String variant,
      long expected,
      String section) {
    if (!options.cold()) {
      String warm = name + "-warm";
      Map<String, String> warmConfig = new HashMap<>(config);
      warmConfig.put("topic.template", warm);
      BenchKafka.ConnectorRun run = kafka.runConnector(warm, warmConfig, expected);
      report.checkCount(
          "our connector, warm-up" + label + " (" + variant + ")", run.records(), expected);
      kafka.rest().delete(warm);
      kafka.topics().delete(warm);
    }
    BenchKafka.ConnectorRun run = kafka.runConnector(name, config, expected);
    report.checkCount("our connector" + label + " (" + variant + ")", run.records(), expected);
    report.add(
        section,
        "ours" + label + ": connector end to end",
        Report.rate(run.records(), run.millis()),
        String.format(
            "%d ms from registration to last record; %.0f B/record; %s",
            run.millis(),
            Topics.averageBytes(kafka.topics().sample(name, 2_000)),
            label.isEmpty() ? "JsonConverter" : "output.format=json, StringConverter"));
    double cpu = Report.cpuSecondsPerMillion(run.workerCpuMillis(), run.records());
    report.add(
        section,
        "ours" + label + ": worker CPU per million rows",
        Report.seconds(cpu),
        run.workerCpuMillis() + " ms of worker CPU (/proc) from registration to last record");
    double brokerCpu = Report.cpuSecondsPerMillion(run.brokerCpuMillis(), run.records());
    report.add(
        section,
        "ours" + label + ": broker CPU per million rows",
        Report.seconds(brokerCpu),
        String.format(
            "%d ms; %d cores / (worker + broker) CPU per row" + " = %s",
            run.brokerCpuMillis(),
            CORES,
            Report.rate((long) (CORES * 1_000_000.0 / (cpu + brokerCpu)), 1000)));
    kafka.rest().delete(name);
    return new ConnectorFigures(run.records() * 1000.0 / Math.max(1, run.millis()), cpu, brokerCpu);
  }

  /** The benchmark's connector config with the {@code --connector} settings added. */
  private Map<String, String> connectorConfig(Tables.Table table, String topic) {
    Map<String, String> config =
        BenchKafka.connectorConfig(table.path().toString(), topic, "earliest");
    config.putAll(options.connector());
    return config;
  }

  /** What a run reached: rows/s end to end, worker and broker CPU-seconds per million rows. */
  private record ConnectorFigures(
      double rowsPerSecond, double cpuSecondsPerMillion, double brokerCpuSecondsPerMillion) {}

  /** What Spark's job reached: rows/s from query start, CPU-seconds per million rows. */
  private record SparkRun(double rowsPerSecond, double cpuSecondsPerMillion) {}

  /** {@link #connectorConfig} in output.format=json with StringConverter. */
  private Map<String, String> jsonConnectorConfig(Tables.Table table, String topic) {
    Map<String, String> config =
        BenchKafka.jsonConnectorConfig(table.path().toString(), topic, "earliest");
    config.putAll(options.connector());
    return config;
  }

  private SparkRun spark(
      BenchKafka kafka,
      Tables.Table table,
      String variant,
      long expected,
      String section,
      Path logs) {
    String topic = "spark-" + variant;
    kafka.topics().create(topic);
    if (!options.cold()) {
      kafka.topics().create(topic + "-warm");
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                table.path().toString(),
                kafka.bootstrapServers(),
                topic,
                options
                    .workDir()
                    .resolve("spark-checkpoints/" + variant + "-" + System.nanoTime())
                    .toString(),
                Integer.toString(passes())));
    options.producer().forEach((key, value) -> args.add(key + "=" + value));
    Map<String, String> result =
        jvms.runSpark(
            logs.resolve("spark-stream-" + variant + ".log"),
            "1g",
            60,
            "io.deltacdf.connect.bench.spark.SparkCdfToKafka",
            args.toArray(String[]::new));
    long count = kafka.topics().count(topic);
    report.checkCount("Spark readChangeFeed -> Kafka (" + variant + ")", count, expected);
    if (!options.cold()) {
      report.checkCount(
          "Spark warm-up (" + variant + ")", kafka.topics().count(topic + "-warm"), expected);
      kafka.topics().delete(topic + "-warm");
    }
    long end = kafka.topics().lastAppendTime(topic);
    long queryMs = end - Long.parseLong(result.get("query_start_ms"));
    long jvmMs = end - Long.parseLong(result.get("jvm_start_ms"));
    report.add(
        section,
        "Spark: readChangeFeed stream to Kafka",
        Report.rate(count, queryMs),
        queryMs
            + " ms from query start to last record"
            + (options.cold()
                ? " (" + Report.rate(count, jvmMs) + " incl. JVM and session start)"
                : ", after a warm-up pass in the same session"));
    report.add(
        section, "Spark: JVM peak RSS", result.get("peak_rss_mib") + " MiB", "-Xmx1g, local[*]");
    long queryCpuMs = Long.parseLong(result.get("query_cpu_ms"));
    double cpu = Report.cpuSecondsPerMillion(queryCpuMs, count);
    report.add(
        section,
        "Spark: JVM CPU per million rows",
        Report.seconds(cpu),
        queryCpuMs
            + " ms of CPU (/proc) from query start to end; "
            + result.get("jvm_cpu_ms")
            + " ms incl. JVM and session start"
            + (options.cold() ? "" : " and the warm-up pass"));
    return new SparkRun(count * 1000.0 / Math.max(1, queryMs), cpu);
  }
}
