package io.deltacdf.connect.it.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.deltacdf.connect.it.external.testing.WorkerRuntime;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.ExternalKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scripts docker-compose.yml's services run (docker/*.sh), run here outside Docker in the order
 * the stack runs them: "build" (after {@code mvn package}, so with PLUGIN_BUILD=if-missing it skips
 * Maven's package but still unpacks Debezium's JDBC sink), "table" (Spark writes the demo table),
 * "register" (against a plain Kafka 4.4.0 worker loading {@code connector/} from plugin.path) and
 * "records" (with Kafka's own console consumer standing in for Confluent's Avro one, which is not
 * on Maven Central; the worker writes JSON). The broker and worker start while the table script
 * runs.
 *
 * <p>{@code -Ddocker.scripts.full=true} also runs what CI leaves out for time: the build script's
 * full {@code mvn -DskipTests package} (PLUGIN_BUILD=always, as in the stack) and {@code table
 * mutate}, whose seven change records the records script then prints.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DockerScriptsIT {

  private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration RUNNING_TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path work;

  private static Path repo;
  private static Path table;
  private static final boolean FULL = Boolean.getBoolean("docker.scripts.full");

  /**
   * Started while the table script runs (not before: a full build rebuilds connector/); the
   * register script is the first to need it.
   */
  private static CompletableFuture<ExternalKafka> kafkaStart;

  @BeforeAll
  static void paths() {
    repo = ExternalKafka.repoRoot();
    table = work.resolve("delta-tables/customers");
  }

  @AfterAll
  static void stop() {
    if (kafkaStart != null) {
      kafkaStart.thenAccept(ExternalKafka::close).exceptionally(failed -> null).join();
    }
  }

  private static ExternalKafka kafka() {
    return kafkaStart.join();
  }

  @Test
  @Order(1)
  void buildScriptLeavesThePluginFolderAndUnpacksTheJdbcSink() throws Exception {
    Path sinkPlugins = work.resolve("connect-plugins");
    Result build =
        run(
            List.of("bash", "docker/build-plugin.sh"),
            Map.of(
                "PLUGIN_BUILD",
                FULL ? "always" : "if-missing",
                "SINK_PLUGIN_DIR",
                sinkPlugins.toString()));

    assertThat(build.exitCode()).as(build.output()).isZero();
    assertThat(build.output())
        .contains(FULL ? "BUILD SUCCESS" : "already built", "Build done")
        .doesNotContain("\u001b");
    try (var jars = Files.list(sinkPlugins.resolve("debezium-connector-jdbc"))) {
      assertThat(jars.map(jar -> jar.getFileName().toString()))
          .as(build.output())
          .anyMatch(name -> name.matches("debezium-connector-jdbc-3\\.3\\.1\\.Final\\.jar"))
          .anyMatch(name -> name.startsWith("postgresql-"));
    }
  }

  @Test
  @Order(2)
  void tableScriptWritesTheDemoTableOnceAndLeavesItThen() throws Exception {
    kafkaStart = CompletableFuture.supplyAsync(ExternalKafka::start);
    Map<String, String> env = Map.of("DEMO_TABLE", table.toString());
    Result create = run(List.of("bash", "docker/create-table.sh"), env);
    assertThat(create.exitCode()).as(create.output()).isZero();
    assertThat(table.resolve("_delta_log/00000000000000000000.json")).exists();
    long commits = countCommits();

    Result again = run(List.of("bash", "docker/create-table.sh", "create"), env);
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(again.output()).contains("already at " + table + ": left as it is");
    assertThat(countCommits()).as("the second run commits nothing").isEqualTo(commits);
  }

  @Test
  @Order(3)
  void registerScriptRegistersTheStacksConnectorConfig() throws Exception {
    // local-table-avro.json as the stack registers it, without the Avro converters (Confluent's
    // converter is not on Maven Central: this worker writes JSON) and on this test's table
    // through CONFIG_REPLACE, the script's own substitution.
    ObjectNode config =
        (ObjectNode) JSON.readTree(repo.resolve("config-examples/local-table-avro.json").toFile());
    config.remove(
        List.of(
            "key.converter",
            "key.converter.schema.registry.url",
            "value.converter",
            "value.converter.schema.registry.url"));
    Path configFile = work.resolve("local-table.json");
    JSON.writerWithDefaultPrettyPrinter().writeValue(configFile.toFile(), config);

    Result register =
        run(
            List.of("sh", "docker/register.sh", "customers=" + configFile),
            Map.of(
                "CONNECT_URL",
                kafka().connectUrl().toString().replaceAll("/$", ""),
                "CONFIG_REPLACE",
                "/tmp/delta-demo/customers=" + table,
                "ATTEMPTS",
                "3"));

    assertThat(register.exitCode()).as(register.output()).isZero();
    assertThat(register.output()).contains("Registered connector customers", table.toString());
    new ConnectRest(kafka().connectUrl()).awaitRunning("customers", 1, RUNNING_TIMEOUT);
  }

  @Test
  @Order(4)
  void recordsScriptPrintsTheSnapshotRecords() throws Exception {
    List<String> lines = printedRecords(3);
    for (int id = 1; id <= 3; id++) {
      String key = "\"payload\":{\"id\":" + id + "}";
      assertThat(lines).anyMatch(line -> line.contains(key));
    }
  }

  @Test
  @Order(5)
  @EnabledIfSystemProperty(named = "docker.scripts.full", matches = "true")
  void tableScriptMutatesAndTheRecordsScriptPrintsTheChanges() throws Exception {
    Result mutate =
        run(
            List.of("bash", "docker/create-table.sh", "mutate"),
            Map.of("DEMO_TABLE", table.toString()));
    assertThat(mutate.exitCode()).as(mutate.output()).isZero();

    // 3 snapshot rows, then 2 + 1 inserts, an update's two images, a delete and its tombstone.
    List<String> lines = printedRecords(10);
    assertThat(lines).last().asString().endsWith(" | null");
  }

  /** The records script's lines "key | value", once it printed {@code count} records. */
  private static List<String> printedRecords(int count) throws Exception {
    String consoleConsumer =
        String.join(
            " ",
            WorkerRuntime.defaults().javaExecutable().toString(),
            "-Dlog4j2.configurationFile=" + repo.resolve("kafka-runtime/log4j2-cli.xml"),
            "-cp",
            ExternalKafka.kafkaRuntimeClasspath(repo),
            "org.apache.kafka.tools.consumer.ConsoleConsumer");
    Result records =
        run(
            List.of("bash", "docker/show-records.sh"),
            Map.of(
                "BOOTSTRAP_SERVERS",
                kafka().bootstrapServers(),
                "TOPIC",
                "customers",
                "MAX_RECORDS",
                Integer.toString(count),
                "CONSOLE_CONSUMER",
                consoleConsumer));

    assertThat(records.exitCode()).as(records.output()).isZero();
    List<String> lines = records.output().lines().filter(line -> line.contains(" | ")).toList();
    assertThat(lines).as(records.output() + kafka().workerLogTail()).hasSize(count);
    return lines;
  }

  private static long countCommits() throws IOException {
    try (var files = Files.list(table.resolve("_delta_log"))) {
      return files.filter(file -> file.toString().endsWith(".json")).count();
    }
  }

  private record Result(int exitCode, String output) {}

  private static Result run(List<String> command, Map<String, String> env) throws Exception {
    Path output = Files.createTempFile(work, "script-", ".out");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(repo.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    builder.environment().putAll(env);
    builder.environment().put("TMPDIR", work.toString());
    Process process = builder.start();
    if (!process.waitFor(SCRIPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
      return new Result(
          -1, Files.readString(output) + "\n(timed out after " + SCRIPT_TIMEOUT + ")");
    }
    return new Result(process.exitValue(), Files.readString(output));
  }
}
