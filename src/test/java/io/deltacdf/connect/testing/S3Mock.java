package io.deltacdf.connect.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * Adobe's S3Mock ({@code com.adobe.testing:s3mock:4.12.4:jar:exec}, copied to {@code
 * target/s3mock/} by the pom) as a child JVM: an S3 endpoint on plain HTTP, bound to 127.0.0.1,
 * storing buckets in a folder of its own that survives {@link #stop()} so that {@link #start()}
 * brings the same buckets and objects back on the same port — an outage, as seen by a client.
 *
 * <p>S3Mock accepts any credentials and checks no signatures. Its Tomcat also opens a second,
 * unused HTTP connector on a random port on all interfaces (S3Mock offers no setting for that
 * connector's address); the endpoint is the main connector, whose TLS is turned off.
 */
public final class S3Mock implements AutoCloseable {

  /** Any key pair works; these are what {@link #hadoopSettings()} hands to S3A. */
  public static final String ACCESS_KEY = "s3mock-access-key";

  public static final String SECRET_KEY = "s3mock-secret-key";
  public static final String REGION = "us-east-1";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final int LOG_TAIL_LINES = 30;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Path dir;
  private final Path root;
  private final Path log;
  private final int port;
  private ChildProcess process;

  /** The Hadoop configuration {@link #configure} set S3A's settings on, unset on close. */
  private Configuration configured;

  private S3Mock(Path dir, int port) {
    this.dir = dir;
    this.root = dir.resolve("root");
    this.log = dir.resolve("s3mock.log");
    this.port = port;
  }

  /** Starts S3Mock on a free port with a fresh store, then creates {@code buckets}. */
  public static S3Mock start(String... buckets) {
    Path dir;
    try {
      dir = Files.createTempDirectory("s3mock-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    S3Mock mock = new S3Mock(dir, Ports.free());
    try {
      mock.start();
      for (String bucket : buckets) {
        mock.createBucket(bucket);
      }
      return mock;
    } catch (RuntimeException | Error e) {
      mock.close();
      throw e;
    }
  }

  /** {@code http://127.0.0.1:<port>}: the same across restarts. */
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /**
   * Starts the child JVM on this mock's port and store (again, after {@link #stop()}) and waits
   * until it lists buckets.
   */
  public void start() {
    if (isRunning()) {
      throw new IllegalStateException("S3Mock is already running on " + endpoint());
    }
    Path jar = jar();
    try {
      Files.createDirectories(root);
      process =
          ChildProcess.start(
              "S3Mock",
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:TieredStopAtLevel=1",
                  "-XX:+UseSerialGC",
                  "-jar",
                  jar.toString(),
                  // The main connector, plain HTTP on loopback, is the endpoint.
                  "--server.address=127.0.0.1",
                  "--server.port=" + port,
                  "--server.ssl.enabled=false",
                  // The extra HTTP connector S3Mock always adds: a random port, unused.
                  "--com.adobe.testing.s3mock.httpPort=0",
                  "--com.adobe.testing.s3mock.store.root=" + root,
                  "--com.adobe.testing.s3mock.store.retainFilesOnExit=true",
                  "--com.adobe.testing.s3mock.store.region=" + REGION,
                  "--logging.level.root=WARN",
                  "--spring.main.banner-mode=off"),
              log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    awaitReady();
  }

  /**
   * Stops the child JVM gracefully (SIGTERM; SIGKILL after 20 s). The store stays for the next
   * {@link #start()}. No-op when stopped.
   */
  public void stop() {
    if (process == null) {
      return;
    }
    ChildProcess stopping = process;
    process = null;
    stopping.stop(STOP_TIMEOUT);
  }

  /** Creates a bucket (idempotent in S3Mock's us-east-1). */
  public void createBucket(String bucket) {
    var response =
        send(
            HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket))
                .PUT(HttpRequest.BodyPublishers.noBody()));
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "Creating bucket " + bucket + ": HTTP " + response.statusCode() + " " + response.body());
    }
  }

  /**
   * What S3A needs to read and write {@code s3a://<bucket>/...} here: endpoint, path-style access,
   * plain HTTP, region and static keys. Retries are bounded (one S3A retry, no SDK retries) so that
   * a writer fails within ~5 s while S3Mock is stopped; with S3A's defaults a refused connection is
   * retried for ~9 minutes.
   */
  public Map<String, String> hadoopSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fs.s3a.endpoint", endpoint());
    settings.put("fs.s3a.endpoint.region", REGION);
    settings.put("fs.s3a.path.style.access", "true");
    settings.put("fs.s3a.connection.ssl.enabled", "false");
    settings.put(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    settings.put("fs.s3a.access.key", ACCESS_KEY);
    settings.put("fs.s3a.secret.key", SECRET_KEY);
    settings.put("fs.s3a.attempts.maximum", "0");
    settings.put("fs.s3a.retry.limit", "1");
    settings.put("fs.s3a.retry.interval", "200ms");
    return settings;
  }

  /**
   * Sets {@link #hadoopSettings()} on the Spark session's Hadoop configuration, so that Spark
   * writes {@code s3a://} tables here; {@link #close} unsets them again, for the next test class in
   * this JVM.
   */
  public void configure(SparkSession spark) {
    configured = spark.sparkContext().hadoopConfiguration();
    hadoopSettings().forEach(configured::set);
  }

  /** Stops S3Mock, deletes its store and unsets what {@link #configure} set. */
  @Override
  public void close() {
    try {
      if (configured != null) {
        hadoopSettings().keySet().forEach(configured::unset);
      }
      stop();
    } finally {
      Folders.deleteRecursively(dir);
    }
  }

  private void awaitReady() {
    try {
      process.awaitHttpOk(URI.create(endpoint() + "/"), START_TIMEOUT, LOG_TAIL_LINES);
    } catch (RuntimeException e) {
      stop();
      throw e;
    }
  }

  private static java.net.http.HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** target/s3mock/s3mock-exec.jar, put there by maven-dependency-plugin (or -Ds3mock.jar). */
  private static Path jar() {
    Path jar = Path.of(System.getProperty("s3mock.jar", "target/s3mock/s3mock-exec.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar.toAbsolutePath()
              + " is missing: run 'mvn process-test-resources' (the pom copies"
              + " com.adobe.testing:s3mock:4.12.4:jar:exec there), or pass -Ds3mock.jar=<path>");
    }
    return jar;
  }
}
