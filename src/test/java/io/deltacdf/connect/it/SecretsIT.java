package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.deltacdf.connect.it.testing.ConnectRest;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Folders;
import io.deltacdf.connect.testing.Ports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.common.config.provider.FileConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets stay secret: every secret-bearing setting holds a distinctive marker, the connector runs
 * (a local table, so the secrets are configured but not needed), fails at run time (its table
 * deleted), fails to start (restarted on the missing table) and fails validation (a missing path,
 * an unreachable S3 endpoint); then the worker's INFO log and every REST answer about the connector
 * are searched for the marker.
 *
 * <p>The one place the marker may appear is where Connect hands the configuration back as it was
 * submitted: {@code GET /connectors/{name}/config}, the {@code config} of {@code GET
 * /connectors/{name}} (and of {@code GET /connectors?expand=info}), and the task configurations of
 * {@code GET /connectors/{name}/tasks}, which are the connector's settings as the connector passed
 * them on. Connect stores and returns connector configurations verbatim; keeping secrets out of
 * them is what config providers are for, and {@link #aConfigProviderKeepsSecretsOutOfEveryAnswer()}
 * shows that with a {@link FileConfigProvider} the marker appears nowhere at all.
 */
class SecretsIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final List<String> SECRET_KEYS =
      List.of(
          "s3.secret.access.key",
          "s3.session.token",
          "azure.account.key",
          "azure.sas.token",
          "azure.oauth.client.secret",
          "column.mask.hash.salt");

  @TempDir static Path dir;

  @RegisterExtension
  static final SharedCluster cluster =
      new SharedCluster(
          KafkaCluster.builder()
              .workerLogLevel("INFO")
              .workerProperty("config.providers", "file")
              .workerProperty("config.providers.file.class", FileConfigProvider.class.getName()));

  @Test
  void secretsAppearOnlyWhereConnectEchoesTheSubmittedConfig() throws Exception {
    String marker = "MARKER-" + UUID.randomUUID();
    Map<String, String> secrets = new LinkedHashMap<>();
    SECRET_KEYS.forEach(key -> secrets.put(key, marker + "-" + key));
    Scan scan = new Scan(marker);

    // Validation: a good configuration, and failing ones.
    String good = table("secret-good");
    JsonNode valid = validate(config(good, secrets));
    assertThat(valid.path("error_count").asInt()).as(valid.toString()).isZero();
    scan.rest("validate (good)", valid);
    scan.rest(
        "validate (missing path)",
        validateFailing(config(dir.resolve("missing").toString(), secrets), "delta.table.paths"));
    scan.rest("validate (unreachable S3)", validateFailing(unreachableS3(secrets), null));
    ConnectRest.Response refused =
        cluster
            .get()
            .rest()
            .tryPutConfig("secret-missing", config(dir.resolve("missing").toString(), secrets));
    assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
    scan.rest("PUT config (missing path)", refused.body());

    // A running connector.
    cluster.get().rest().deploy("secret-ok", config(good, secrets), WAIT);
    assertThat(TopicReader.readAll(cluster.get().bootstrapServers(), "secret-good", 2, WAIT, false))
        .hasSize(2);
    scanConnector(scan, "secret-ok");

    // A connector whose task fails at run time, then again at start.
    String doomed = table("secret-doomed");
    cluster.get().rest().deploy("secret-fail", config(doomed, secrets), WAIT);
    Folders.deleteRecursively(Path.of(doomed));
    String runtimeTrace = cluster.get().rest().awaitTaskFailed("secret-fail", WAIT);
    scan.text("task trace (failed while running)", runtimeTrace);
    scanConnector(scan, "secret-fail");
    ConnectRest.Response restart =
        cluster
            .get()
            .rest()
            .post("/connectors/secret-fail/restart?includeTasks=true&onlyFailed=true");
    assertThat(restart.status()).as(restart.toString()).isLessThan(300);
    scan.rest("POST restart", restart.body());
    String startTrace = awaitNewTrace("secret-fail", runtimeTrace);
    scan.text("task trace (failed at start)", startTrace);
    scanConnector(scan, "secret-fail");
    System.out.printf(
        "SecretsIT: failures seen%n  at run time: %s%n  at start: %s%n",
        firstLine(runtimeTrace), firstLine(startTrace));

    scan.log(cluster.get().workerLog());
    System.out.println("SecretsIT (raw secrets): " + scan.report());
    // The log did see the connector's configuration, at INFO, secrets hidden.
    String log = Files.readString(cluster.get().workerLog());
    assertThat(log)
        .contains(
            "DeltaCdfSourceConfig values:",
            "s3.secret.access.key = [hidden]",
            "azure.oauth.client.secret = [hidden]",
            "column.mask.hash.salt = [hidden]");

    Set<String> echoes =
        Set.of(
            "GET /connectors/secret-ok/config",
            "GET /connectors/secret-ok .config",
            "GET /connectors/secret-ok/tasks[] .config",
            "GET /connectors?expand=info .config",
            "GET /connectors/secret-fail/config",
            "GET /connectors/secret-fail .config",
            "GET /connectors/secret-fail/tasks[] .config");
    assertThat(scan.found).as(scan.report()).isSubsetOf(echoes);
    // Connect does echo the submitted configuration as is: the marker is there, every secret.
    assertThat(scan.found)
        .as(scan.report())
        .containsAll(
            Set.of("GET /connectors/secret-ok/config", "GET /connectors/secret-ok .config"));
    JsonNode echoed = cluster.get().rest().get("/connectors/secret-ok/config").body();
    secrets.forEach((key, value) -> assertThat(echoed.path(key).asText()).isEqualTo(value));
    // Still no leak in the values the connector never needed to show.
    assertThat(scan.logLines).isEmpty();
  }

  @Test
  void aConfigProviderKeepsSecretsOutOfEveryAnswer() throws Exception {
    String marker = "MARKER-" + UUID.randomUUID();
    Path secretsFile = dir.resolve("secrets.properties");
    StringBuilder file = new StringBuilder();
    Map<String, String> references = new LinkedHashMap<>();
    for (String key : SECRET_KEYS) {
      file.append(key).append('=').append(marker).append('-').append(key).append('\n');
      references.put(key, "${file:" + secretsFile + ":" + key + "}");
    }
    Files.writeString(secretsFile, file);
    Scan scan = new Scan(marker);

    String good = table("provided-good");
    JsonNode valid = validate(config(good, references));
    assertThat(valid.path("error_count").asInt()).as(valid.toString()).isZero();
    scan.rest("validate (good)", valid);
    scan.rest(
        "validate (missing path)",
        validateFailing(
            config(dir.resolve("missing-too").toString(), references), "delta.table.paths"));
    scan.rest("validate (unreachable S3)", validateFailing(unreachableS3(references), null));

    cluster.get().rest().deploy("provided-ok", config(good, references), WAIT);
    List<String> names = new ArrayList<>();
    for (var record :
        TopicReader.readAll(cluster.get().bootstrapServers(), "provided-good", 2, WAIT, false)) {
      names.add(TopicReader.jsonValue(record.value()).path("name").asText());
    }
    // The names were hashed with the salt the provider resolved.
    assertThat(names)
        .containsExactlyInAnyOrder(
            hmacHex(marker + "-column.mask.hash.salt", "a"),
            hmacHex(marker + "-column.mask.hash.salt", "b"));
    scanConnector(scan, "provided-ok");
    JsonNode echoed = cluster.get().rest().get("/connectors/provided-ok/config").body();
    references.forEach((key, value) -> assertThat(echoed.path(key).asText()).isEqualTo(value));

    String doomed = table("provided-doomed");
    cluster.get().rest().deploy("provided-fail", config(doomed, references), WAIT);
    Folders.deleteRecursively(Path.of(doomed));
    scan.text("task trace", cluster.get().rest().awaitTaskFailed("provided-fail", WAIT));
    scanConnector(scan, "provided-fail");

    scan.log(cluster.get().workerLog());
    System.out.println("SecretsIT (config provider): " + scan.report());
    assertThat(scan.found).as(scan.report()).isEmpty();
  }

  // ---- what is scanned ----

  /** Every GET about one connector; configs echoed as submitted are scanned on their own. */
  private static void scanConnector(Scan scan, String name) {
    String base = "/connectors/" + name;
    scan.echo("GET " + base, get(base));
    scan.rest("GET " + base + "/config", get(base + "/config"));
    scan.rest("GET " + base + "/status", get(base + "/status"));
    scan.echo("GET " + base + "/tasks", get(base + "/tasks"));
    scan.rest("GET " + base + "/tasks/0/status", get(base + "/tasks/0/status"));
    scan.rest("GET " + base + "/topics", get(base + "/topics"));
    scan.rest("GET " + base + "/offsets", get(base + "/offsets"));
    JsonNode expanded = get("/connectors?expand=info&expand=status");
    for (JsonNode connector : expanded) {
      scan.echo("GET /connectors?expand=info", connector.path("info"));
      scan.rest("GET /connectors?expand=status", connector.path("status"));
    }
  }

  private static JsonNode get(String path) {
    ConnectRest.Response response = cluster.get().rest().get(path);
    assertThat(response.ok()).as("GET %s: %s", path, response).isTrue();
    return response.body();
  }

  /** Where a marker turned up. */
  private static final class Scan {

    private final String marker;
    final Set<String> found = new TreeSet<>();
    final List<String> logLines = new ArrayList<>();
    private final Map<String, String> context = new LinkedHashMap<>();
    private int scanned;

    Scan(String marker) {
      this.marker = marker;
    }

    void rest(String place, JsonNode body) {
      text(place, body.toString());
    }

    /**
     * An answer whose {@code config} (or each element's {@code config}) is the configuration as
     * submitted: that part is one place, the rest of the answer another.
     */
    void echo(String place, JsonNode body) {
      if (body.isArray()) {
        for (JsonNode element : body) {
          echoObject(place + "[]", element);
        }
      } else {
        echoObject(place, body);
      }
    }

    private void echoObject(String place, JsonNode body) {
      ObjectNode rest = body.deepCopy();
      JsonNode config = rest.remove("config");
      text(place + " .config", config == null ? "" : config.toString());
      text(place + " (besides config)", rest.toString());
    }

    void text(String place, String text) {
      scanned++;
      int at = text.indexOf(marker);
      if (at >= 0) {
        found.add(place);
        context.putIfAbsent(
            place, text.substring(Math.max(0, at - 120), Math.min(text.length(), at + 80)));
      }
    }

    void log(Path log) throws IOException {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      for (String line : lines) {
        if (line.contains(marker)) {
          logLines.add(line.length() > 400 ? line.substring(0, 400) + "…" : line);
        }
      }
      scanned++;
      if (!logLines.isEmpty()) {
        found.add("worker log");
        context.put(
            "worker log",
            String.join("\n      ", logLines.subList(0, Math.min(5, logLines.size()))));
      }
      System.out.printf(
          "SecretsIT: scanned %s (%d lines, %d at INFO)%n",
          log, lines.size(), lines.stream().filter(l -> l.contains(" INFO ")).count());
    }

    String report() {
      StringBuilder out =
          new StringBuilder(
              scanned
                  + " places scanned; marker found in "
                  + found.size()
                  + (found.isEmpty() ? "" : ":"));
      context.forEach(
          (place, text) -> out.append("\n  ").append(place).append(": …").append(text).append('…'));
      return out.toString();
    }
  }

  // ---- configurations ----

  private static Map<String, String> config(String path, Map<String, String> secrets) {
    return ConnectorConfig.forTables(path)
        .withAll(secrets)
        .startMode("earliest")
        .pollIntervalMs(200)
        // The secrets are really configured: static S3 keys and an Azure account with a key.
        .with("s3.credentials", "static")
        .with("s3.access.key.id", "AKIAEXAMPLEKEYID")
        .with("azure.account.name", "secretsit")
        .with("azure.auth.type", "shared-key")
        // ... and the salt hashes the names.
        .with("column.mask.hash.list", ".*:name")
        .build();
  }

  /** An S3 table behind a closed port, failing fast: credentials in play, and an error. */
  private static Map<String, String> unreachableS3(Map<String, String> secrets) {
    Map<String, String> config = config("s3a://secrets-bucket/table", secrets);
    config.put("s3.endpoint", "http://127.0.0.1:" + Ports.free());
    config.put("storage.insecure.http.allowed", "true");
    config.put("s3.region", "us-east-1");
    config.put("s3.path.style.access", "true");
    config.put("hadoop.fs.s3a.attempts.maximum", "1");
    config.put("hadoop.fs.s3a.retry.limit", "0");
    config.put("hadoop.fs.s3a.connection.establish.timeout", "2s");
    return config;
  }

  private static JsonNode validate(Map<String, String> config) {
    Map<String, String> named = new HashMap<>(config);
    named.put("name", "secret-validation");
    return cluster.get().rest().validate("DeltaCdfSourceConnector", named);
  }

  /** Validates a configuration that must fail; prints the errors (on {@code key} if given). */
  private static JsonNode validateFailing(Map<String, String> config, String key) {
    JsonNode response = validate(config);
    Map<String, List<String>> errors = ConnectRest.errorsByKey(response);
    System.out.println("SecretsIT: validate errors " + errors);
    assertThat(errors).as(response.toString()).isNotEmpty();
    if (key != null) {
      assertThat(errors).containsKey(key);
    }
    return response;
  }

  private static String table(String name) {
    String path = CdfTables.keyed(dir.resolve(name));
    sql("INSERT INTO delta.`%s` VALUES (1, 'a'), (2, 'b')", path);
    return path;
  }

  /** After a restart: the task's trace once it differs from {@code previous}. */
  private static String awaitNewTrace(String name, String previous) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String trace = previous;
    while (System.nanoTime() < deadline) {
      JsonNode task = get("/connectors/" + name + "/status").path("tasks").path(0);
      if ("FAILED".equals(task.path("state").asText())
          && !task.path("trace").asText().equals(previous)) {
        return task.path("trace").asText();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("No new failure of " + name + " after the restart; still " + trace);
  }

  private static String hmacHex(String salt, String value) throws Exception {
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(
        new javax.crypto.spec.SecretKeySpec(salt.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return java.util.HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
  }

  private static String firstLine(String trace) {
    int end = trace.indexOf('\n');
    return end < 0 ? trace : trace.substring(0, end);
  }
}
