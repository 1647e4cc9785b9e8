package io.deltacdf.connect.it.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.testing.ChildProcess;
import io.deltacdf.connect.testing.Folders;
import io.deltacdf.connect.testing.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Apicurio Registry 2.6 ({@code io.apicurio:apicurio-registry-app:<version>:tar.gz:all}, unpacked
 * to {@code target/apicurio-registry/} by the pom) as a child JVM with in-memory storage, bound to
 * 127.0.0.1 on a free port. Converters talk to its own API ({@link #converterUrl()}); tests read it
 * through its Confluent-compatible API ({@link #ccompatUrl()}), the API a Confluent Schema Registry
 * client would use.
 */
public final class ApicurioRegistry implements AutoCloseable {

  /**
   * Confluent's compatibility levels the tests use, as the ccompat API takes them. NONE is the
   * default; Apicurio sets it only on a subject that exists (it removes the subject's rule).
   */
  public enum Compatibility {
    NONE,
    BACKWARD
  }

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final int LOG_TAIL_LINES = 40;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Path dir;
  private final int port;
  private final ChildProcess process;

  private ApicurioRegistry(Path dir, int port, ChildProcess process) {
    this.dir = dir;
    this.port = port;
    this.process = process;
  }

  /** Starts the registry on a free port and waits until it reports ready (~5–10 s). */
  public static ApicurioRegistry start() {
    Path jar = runnerJar();
    int port = Ports.free();
    ApicurioRegistry registry;
    try {
      Path dir = Files.createTempDirectory("apicurio-");
      ChildProcess process =
          ChildProcess.start(
              "Apicurio Registry",
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:TieredStopAtLevel=1",
                  "-XX:+UseSerialGC",
                  "-Dquarkus.http.host=127.0.0.1",
                  "-Dquarkus.http.port=" + port,
                  "-Dquarkus.log.level=WARN",
                  "-jar",
                  jar.toString()),
              dir.resolve("apicurio.log"));
      registry = new ApicurioRegistry(dir, port, process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      registry.awaitReady();
      return registry;
    } catch (RuntimeException | Error e) {
      registry.close();
      throw e;
    }
  }

  /** The URL Apicurio's converters and serdes take ({@code apicurio.registry.url}). */
  public String converterUrl() {
    return base() + "/apis/registry/v2";
  }

  /** The Confluent Schema Registry compatible API (what Confluent clients take as their URL). */
  public String ccompatUrl() {
    return base() + "/apis/ccompat/v7";
  }

  /**
   * Sets a subject's compatibility level; the subject need not exist yet (it applies from its first
   * version on).
   */
  public void setCompatibility(String subject, Compatibility level) {
    JsonNode answer =
        send(
            HttpRequest.newBuilder(URI.create(ccompatUrl() + "/config/" + encode(subject)))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"" + level + "\"}")));
    if (!level.name().equals(answer.path("compatibility").asText())) {
      throw new IllegalStateException("Setting " + subject + " to " + level + ": " + answer);
    }
  }

  /** The subject's version numbers, oldest first; empty when the subject does not exist. */
  public List<Integer> versions(String subject) {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(ccompatUrl() + "/subjects/" + encode(subject) + "/versions"))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    var response = exchange(request);
    if (response.statusCode() == 404) {
      return List.of();
    }
    List<Integer> versions = new ArrayList<>();
    read(response.statusCode(), response.body(), request).forEach(v -> versions.add(v.asInt()));
    return versions;
  }

  /** The schema text registered under a global id ({@code GET /schemas/ids/<id>}). */
  public String schemaById(int id) {
    return send(HttpRequest.newBuilder(URI.create(ccompatUrl() + "/schemas/ids/" + id)).GET())
        .path("schema")
        .asText();
  }

  /** The schema text of one version of a subject. */
  public String schema(String subject, int version) {
    return send(HttpRequest.newBuilder(
                URI.create(ccompatUrl() + "/subjects/" + encode(subject) + "/versions/" + version))
            .GET())
        .path("schema")
        .asText();
  }

  /** Stops the registry (SIGTERM; SIGKILL after 20 s) and deletes its folder. */
  @Override
  public void close() {
    try {
      process.stop(STOP_TIMEOUT);
    } finally {
      Folders.deleteRecursively(dir);
    }
  }

  private String base() {
    return "http://127.0.0.1:" + port;
  }

  private void awaitReady() {
    process.awaitHttpOk(URI.create(base() + "/health/ready"), START_TIMEOUT, LOG_TAIL_LINES);
  }

  private static JsonNode send(HttpRequest.Builder builder) {
    HttpRequest request = builder.timeout(Duration.ofSeconds(10)).build();
    var response = exchange(request);
    return read(response.statusCode(), response.body(), request);
  }

  private static java.net.http.HttpResponse<String> exchange(HttpRequest request) {
    try {
      return HTTP.send(request, BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode read(int status, String body, HttpRequest request) {
    if (status / 100 != 2) {
      throw new IllegalStateException(
          request.method() + " " + request.uri() + ": HTTP " + status + " " + body);
    }
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String encode(String subject) {
    return URLEncoder.encode(subject, StandardCharsets.UTF_8);
  }

  /** target/apicurio-registry/apicurio-registry-app-*-runner.jar, or -Dapicurio.jar=<path>. */
  private static Path runnerJar() {
    String configured = System.getProperty("apicurio.jar");
    if (configured != null) {
      return Path.of(configured);
    }
    Path folder = Path.of("target/apicurio-registry");
    try (var files = Files.list(folder)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith("-runner.jar"))
          .findFirst()
          .orElseThrow();
    } catch (IOException | java.util.NoSuchElementException e) {
      throw new IllegalStateException(
          folder.toAbsolutePath()
              + " holds no *-runner.jar: run"
              + " 'mvn process-test-resources' (the pom unpacks io.apicurio:apicurio-registry-app"
              + " there), or pass -Dapicurio.jar=<path>",
          e);
    }
  }
}
