package io.deltacdf.connect.it.storage.testing;

import io.deltacdf.connect.testing.ChildProcess;
import io.deltacdf.connect.testing.Folders;
import io.deltacdf.connect.testing.Ports;
import io.deltacdf.connect.testing.TestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.spark.sql.SparkSession;

/**
 * Azurite's Blob service (the Azure Storage emulator, from npm: see package.json) as a child
 * process, standing in for ADLS Gen2. hadoop-azure 3.5.0 falls back to Blob calls when the DFS
 * endpoint is missing, so {@code abfs://} works against it.
 *
 * <p>Data lives on disk under a temp folder, not in memory: {@link #stop()} and {@link #start()}
 * simulate an outage, and the restarted emulator serves the same port and the same blobs.
 */
public final class Azurite implements AutoCloseable {

  public static final String ACCOUNT_NAME = "devstoreaccount1";

  /** Azurite's well-known development key (public, the same for every installation). */
  public static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final String DFS_HOST = ACCOUNT_NAME + ".dfs.core.windows.net";
  private static final Path EXECUTABLE = Path.of("node_modules", ".bin", "azurite-blob");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  // Azurite saves its metadata (LokiJS) on a graceful shutdown; it sometimes ignores SIGTERM.
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);
  private static final int LOG_TAIL_LINES = 30;

  private final Path executable;
  private final Path dir;
  private final Path location;
  private final Path log;
  private final int port;
  private ChildProcess process;
  private boolean lastStopKilled;
  private String accountKey = ACCOUNT_KEY;

  /** Accounts besides devstoreaccount1, by name: their keys. */
  private final Map<String, String> otherAccounts = new LinkedHashMap<>();

  private Azurite(Path executable, Path dir, int port) {
    this.executable = executable;
    this.dir = dir;
    this.location = dir.resolve("data");
    this.log = dir.resolve("azurite.log");
    this.port = port;
  }

  /**
   * Starts Azurite on a free port of 127.0.0.1 with a fresh data folder. Fails (never skips) when
   * {@code node_modules/.bin/azurite-blob} is missing: {@code npm install} provides it.
   */
  public static Azurite launch() {
    return launch(Map.of());
  }

  /**
   * As {@link #launch()}, serving {@code otherAccounts} (name → base64 key) too: with {@code
   * azure.endpoint} set, ABFS sends a request for host {@code <name>.<anything>} to account {@code
   * <name>} here, so hosts such as OneLake's can be stood in for.
   */
  public static Azurite launch(Map<String, String> otherAccounts) {
    Path executable = findExecutable();
    Path dir;
    try {
      dir = Files.createTempDirectory("azurite-");
      Files.createDirectories(dir.resolve("data"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Azurite azurite = new Azurite(executable, dir, Ports.free());
    azurite.otherAccounts.putAll(otherAccounts);
    try {
      azurite.start();
      return azurite;
    } catch (RuntimeException e) {
      azurite.close();
      throw e;
    }
  }

  /** Starts the stopped emulator again, on the same port and data folder. */
  public void start() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("Azurite is already running");
    }
    List<String> command =
        List.of(
            executable.toString(),
            "--blobHost",
            "127.0.0.1",
            "--blobPort",
            Integer.toString(port),
            "--location",
            location.toString(),
            "--silent",
            "--disableTelemetry",
            // Idle keep-alive connections end quickly, so a SIGTERM shutdown does not wait on them.
            "--blobKeepAliveTimeout",
            "1");
    try {
      Files.writeString(
          log,
          "---- " + String.join(" ", command) + "\n",
          StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
      ProcessBuilder builder = new ProcessBuilder(command);
      // The one account, with the current key (Azurite's own default unless rotated).
      builder.environment().remove("AZURITE_ACCOUNTS");
      if (!accountKey.equals(ACCOUNT_KEY) || !otherAccounts.isEmpty()) {
        StringBuilder accounts = new StringBuilder(ACCOUNT_NAME + ":" + accountKey);
        otherAccounts.forEach(
            (name, key) -> accounts.append(';').append(name).append(':').append(key));
        builder.environment().put("AZURITE_ACCOUNTS", accounts.toString());
      }
      process = ChildProcess.start("Azurite", builder, log);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot run "
              + executable
              + " (Azurite needs Node.js 20+ on"
              + " the PATH): "
              + e.getMessage(),
          e);
    }
    awaitAnswering();
  }

  /**
   * Stops the emulator like an outage: SIGTERM, then SIGKILL if it is still running after a grace
   * period. Returns when the process is gone and the port is free.
   *
   * <p>On SIGTERM Azurite saves its blob index (LokiJS) before exiting; after a SIGKILL, blobs
   * written in the last ~5 s (its autosave interval) may be missing once it is started again.
   * {@link #lastStopKilled()} tells which happened.
   */
  public void stop() {
    if (process == null || !process.isAlive()) {
      return;
    }
    lastStopKilled = process.stop(STOP_GRACE);
  }

  /**
   * Restarts the emulator with another key for the account, as when an administrator rotates the
   * account key: clients holding the old key get 403 AuthorizationFailure from then on.
   */
  public void rotateKey(String newKey) {
    stop();
    accountKey = newKey;
    start();
  }

  /** Whether the last {@link #stop()} needed SIGKILL (Azurite ignored SIGTERM). */
  public boolean lastStopKilled() {
    return lastStopKilled;
  }

  public boolean running() {
    return process != null && process.isAlive();
  }

  /** The Blob endpoint, {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public String accountName() {
    return ACCOUNT_NAME;
  }

  /** The account's current key: Azurite's well-known key unless {@link #rotateKey rotated}. */
  public String accountKey() {
    return accountKey;
  }

  /** {@code abfs://<container>@devstoreaccount1.dfs.core.windows.net/<path>}. */
  public static String uri(String container, String path) {
    if (container.length() < 3 || container.length() > 63) {
      throw new IllegalArgumentException("Container names have 3 to 63 characters: " + container);
    }
    String relative = path.startsWith("/") ? path.substring(1) : path;
    return "abfs://" + container + "@" + DFS_HOST + "/" + relative;
  }

  /**
   * The Hadoop settings of a writer (Spark) for abfs:// tables here, with shared-key auth. Only
   * {@code fs.azure.*} keys: Spark's session is shared by every test in the JVM.
   *
   * <p>Hadoop caches file systems by scheme and authority ({@code container@account}), not by
   * settings: give each Azurite instance its own container names, or a file system cached for an
   * earlier instance (another port) is used.
   */
  public Map<String, String> hadoopSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fs.azure.abfs.endpoint", "127.0.0.1:" + port);
    settings.put("fs.azure.account.auth.type." + DFS_HOST, "SharedKey");
    settings.put("fs.azure.account.key." + DFS_HOST, accountKey);
    settings.put("fs.azure.always.use.https", "false");
    // Plain HTTP: the default (Apache) networking library insists on an SSL socket factory.
    settings.put("fs.azure.networking.library", "JDK_HTTP_URL_CONNECTION");
    settings.put("fs.azure.createRemoteFileSystemDuringInitialization", "true");
    // ABFS 3.5 sends aggregated metrics to the store from a JVM shutdown hook, retrying for
    // minutes when the store is gone (as Azurite is by then): the test JVM would not exit.
    settings.put("fs.azure.metrics.collection.enabled", "false");
    return settings;
  }

  /** Sets {@link #hadoopSettings()} on the Spark session's Hadoop configuration. */
  public void configure(SparkSession spark) {
    hadoopSettings().forEach(spark.sparkContext().hadoopConfiguration()::set);
  }

  /** The connector settings for shared-key access here (the azure.* keys). */
  public Map<String, String> connectorSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("azure.account.name", ACCOUNT_NAME);
    settings.put("azure.auth.type", "shared-key");
    settings.put("azure.account.key", accountKey);
    settings.put("azure.endpoint", endpoint());
    // Azurite speaks plain HTTP.
    settings.put("storage.insecure.http.allowed", "true");
    return settings;
  }

  /**
   * An account SAS token for the Blob service signed with {@code signingKey} (the account's key for
   * a valid token, anything else for one the store refuses), e.g. permissions "rl" = read and list:
   * {@code sv=…&ss=b&srt=sco&sp=…&se=…&spr=https,http&sig=…}, without a leading '?'.
   */
  public static String accountSas(String permissions, Instant expiry, String signingKey) {
    String version = "2020-12-06";
    String expiryText =
        DateTimeFormatter.ISO_INSTANT.format(expiry.truncatedTo(ChronoUnit.SECONDS));
    String protocol = "https,http";
    String stringToSign =
        String.join(
            "\n",
            ACCOUNT_NAME,
            permissions,
            "b",
            "sco",
            "",
            expiryText,
            "",
            protocol,
            version,
            "",
            "");
    String signature;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(signingKey), "HmacSHA256"));
      signature =
          Base64.getEncoder()
              .encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    return "sv="
        + version
        + "&ss=b&srt=sco&sp="
        + permissions
        + "&se="
        + URLEncoder.encode(expiryText, StandardCharsets.UTF_8)
        + "&spr="
        + URLEncoder.encode(protocol, StandardCharsets.UTF_8)
        + "&sig="
        + URLEncoder.encode(signature, StandardCharsets.UTF_8);
  }

  /** The last lines Azurite printed (it runs with --silent: start, stop and errors only). */
  public String logTail() {
    return process.logTail(LOG_TAIL_LINES);
  }

  @Override
  public void close() {
    try {
      stop();
    } finally {
      Folders.deleteRecursively(dir);
    }
  }

  /** Any HTTP answer (an anonymous request gets 403) means the service is up. */
  private void awaitAnswering() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    URI probe = URI.create(endpoint() + "/" + ACCOUNT_NAME + "?comp=list");
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Azurite exited with "
                + process.exitValue()
                + " on port "
                + port
                + "; its output:\n"
                + logTail());
      }
      try {
        HttpURLConnection connection = (HttpURLConnection) probe.toURL().openConnection();
        connection.setConnectTimeout(500);
        connection.setReadTimeout(2_000);
        int status = connection.getResponseCode();
        connection.disconnect();
        if (status > 0) {
          return;
        }
      } catch (IOException e) {
        last = e.toString();
      }
      TestSupport.sleep(100);
    }
    process.kill();
    throw new IllegalStateException(
        "Azurite not answering on "
            + endpoint()
            + " after "
            + START_TIMEOUT
            + " ("
            + last
            + "); its output:\n"
            + logTail());
  }

  /** node_modules/.bin/azurite-blob in the working directory (the module) or a parent. */
  private static Path findExecutable() {
    Path start = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(EXECUTABLE);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "Azurite is not installed: "
            + EXECUTABLE
            + " is missing under "
            + start
            + ". Run `npm install` (or `npm ci`) in the repository"
            + " root first; it installs the azurite version of package.json (.ci/run does this).");
  }
}
