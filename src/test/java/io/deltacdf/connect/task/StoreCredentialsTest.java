package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.DeltaCdfSourceConnector;
import io.deltacdf.connect.task.testing.SimulatedWorker;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials go only where the operator meant: no store endpoint over plain HTTP unless
 * storage.insecure.http.allowed says so, the endpoint of each table in the log, and no secret in a
 * logged store message.
 */
class StoreCredentialsTest {

  private static final String FLAG = "storage.insecure.http.allowed";
  private static final String SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";

  @Test
  void validateRejectsEachPlainHttpEndpointOnItsSetting() {
    assertRejected(Map.of("s3.endpoint", "http://minio:9000"), "s3.endpoint", "s3.endpoint");
    assertRejected(
        Map.of(
            "azure.account.name", "lake",
            "azure.account.key", "a2V5a2V5a2V5",
            "azure.endpoint", "http://azurite:10000"),
        "azure.endpoint",
        "azure.endpoint");
    assertRejected(
        Map.of("gcs.endpoint", "HTTP://gcs-emulator:4443/"), "gcs.endpoint", "gcs.endpoint");
  }

  @Test
  void validateRejectsHadoopOverridesThatTurnTlsOffNamingThem() {
    assertRejected(
        Map.of("hadoop.fs.s3a.endpoint", "http://minio:9000"), FLAG, "hadoop.fs.s3a.endpoint");
    assertRejected(
        Map.of("hadoop.fs.s3a.connection.ssl.enabled", "false"),
        FLAG,
        "hadoop.fs.s3a.connection.ssl.enabled");
    assertRejected(
        Map.of("hadoop.fs.azure.always.use.https", "false"),
        FLAG,
        "hadoop.fs.azure.always.use.https");
    assertRejected(
        Map.of(
            "hadoop.fs.azure.account.oauth2.client.endpoint",
            "http://login.example.com/tenant/oauth2/token"),
        FLAG,
        "hadoop.fs.azure.account.oauth2.client.endpoint");
  }

  @Test
  void httpsTheMetadataServiceAndTheFlagAreAccepted() {
    assertAccepted(Map.of("s3.endpoint", "https://minio:9000"));
    assertAccepted(
        Map.of(
            "hadoop.fs.azure.account.oauth2.msi.endpoint",
            "http://169.254.169.254/metadata/identity/oauth2/token"));
    assertAccepted(
        Map.of(
            "s3.endpoint",
            "http://minio:9000",
            "hadoop.fs.s3a.connection.ssl.enabled",
            "false",
            FLAG,
            "true"));
  }

  @Test
  void aTaskRefusesAPlainHttpEndpointItWasGivenWithoutValidation() {
    Map<String, String> settings = new HashMap<>(taskSettings("s3a://lake/orders"));
    settings.put("s3.endpoint", "http://minio:9000");

    assertThatThrownBy(() -> new SimulatedWorker(false).start(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("s3.endpoint")
        .hasMessageContaining(FLAG + "=true");
  }

  @Test
  void theLogNamesEachTableEndpointAndHidesSecretsInStoreMessages(@TempDir Path dir)
      throws Exception {
    // Listing works, so the log is found; reading its commit fails with the store's message.
    Files.createDirectories(dir.resolve("_delta_log"));
    Files.writeString(dir.resolve("_delta_log/00000000000000000000.json"), "{}");
    String table = "s3a://lake" + dir.toAbsolutePath();
    ReadFailingStore.message =
        "Connection reset by https://store.internal:9000/lake?X-Amz-Secret=" + SECRET;
    SimulatedWorker worker = new SimulatedWorker(false);
    worker.start(taskSettings(table));
    List<String> logged;
    try (LogCapture capture = new LogCapture()) {
      assertThat(worker.poll()).isEmpty();
      logged = capture.lines();
    } finally {
      worker.stop();
    }

    assertThat(logged)
        .contains("INFO Table " + table + " is read through https://store.internal:9000");
    assertThat(logged)
        .anyMatch(line -> line.startsWith("WARN") && line.contains("Connection reset"));
    assertThat(String.join("\n", logged)).contains(Redaction.HIDDEN).doesNotContain(SECRET);
  }

  // ---- helpers ----

  private static Map<String, String> taskSettings(String table) {
    return ConnectorConfig.forTables(table)
        .name("credentials")
        .with("s3.credentials", "static")
        .with("s3.access.key.id", "AKIAEXAMPLEKEYID")
        .with("s3.secret.access.key", SECRET)
        .with("s3.endpoint", "https://store.internal:9000")
        .with("hadoop.fs.s3a.impl", ReadFailingStore.class.getName())
        .with("hadoop.fs.s3a.impl.disable.cache", "true")
        .buildTask();
  }

  private static Map<String, List<String>> validate(Map<String, String> extra) {
    Map<String, String> settings =
        ConnectorConfig.forTables("/no/such/table").withAll(extra).build();
    Map<String, List<String>> errors = new HashMap<>();
    for (ConfigValue value : new DeltaCdfSourceConnector().validate(settings).configValues()) {
      if (!value.errorMessages().isEmpty()) {
        errors.put(value.name(), value.errorMessages());
      }
    }
    return errors;
  }

  private static void assertRejected(Map<String, String> settings, String key, String named) {
    Map<String, List<String>> errors = validate(settings);
    assertThat(errors).as("%s", settings).containsKey(key);
    assertThat(String.join(" | ", errors.get(key)))
        .contains(named)
        .contains("plain HTTP")
        .contains(FLAG + "=true");
  }

  private static void assertAccepted(Map<String, String> settings) {
    // The table is missing, which only delta.table.paths reports.
    assertThat(validate(settings)).as("%s", settings).containsOnlyKeys("delta.table.paths");
  }

  /** The bucket s3a://lake, a local folder whose files fail to open with {@link #message}. */
  public static final class ReadFailingStore extends RawLocalFileSystem {

    static volatile String message = "Connection refused";

    @Override
    public URI getUri() {
      return URI.create("s3a://lake");
    }

    @Override
    public String getScheme() {
      return "s3a";
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path path, int bufferSize)
        throws IOException {
      throw new java.net.ConnectException(message);
    }
  }

  /** The connector's log lines, as "LEVEL message", while open. */
  private static final class LogCapture implements AutoCloseable {

    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final LoggerContext logs = (LoggerContext) LogManager.getContext(false);
    private final AbstractAppender appender =
        new AbstractAppender("store-credentials", null, null, true, null) {
          @Override
          public void append(LogEvent event) {
            if (event.getLoggerName().startsWith("io.deltacdf")) {
              lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
            }
          }
        };

    LogCapture() {
      appender.start();
      logs.getConfiguration().getRootLogger().addAppender(appender, null, null);
      Configurator.setLevel("io.deltacdf.connect", Level.INFO);
    }

    List<String> lines() {
      return List.copyOf(lines);
    }

    @Override
    public void close() {
      Configurator.setLevel("io.deltacdf.connect", Level.WARN);
      logs.getConfiguration().getRootLogger().removeAppender(appender.getName());
    }
  }
}
