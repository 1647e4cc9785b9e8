package io.deltacdf.connect.it.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.deltacdf.connect.testing.TestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A small client for the Connect REST API of one worker.
 *
 * <p>Helpers that expect success fail with an {@link AssertionError} carrying the status and the
 * body; {@link #get}, {@link #patchOffsets} and {@link #deleteOffsets} return the response as is.
 */
public final class ConnectRest {

  /** Status code and body ({@link MissingNode} when empty, a text node when not JSON). */
  public record Response(int status, JsonNode body) {
    public boolean ok() {
      return status / 100 == 2;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  // One client for all instances: each HttpClient owns a selector thread.
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  // Above the worker's own limit on herder requests (the rebalance timeout).
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);
  private static final long POLL_MILLIS = 200;

  private final URI base;
  private final String workerId;
  private final Supplier<String> deathReport;

  public ConnectRest(URI base) {
    this(base, () -> null);
  }

  /**
   * A client whose unreachable-worker errors carry {@code deathReport} (the exit code and log tail
   * of a worker process that died; null while it lives), so a crash is not reported as a refused
   * connection alone.
   */
  public ConnectRest(URI base, Supplier<String> deathReport) {
    this.base = base;
    // Connect names a worker host:port of its advertised URL, and reports it in statuses.
    this.workerId = base.getHost() + ":" + base.getPort();
    this.deathReport = deathReport;
  }

  public URI baseUrl() {
    return base;
  }

  /** The id Connect gives this worker in statuses: {@code host:port} of its URL. */
  public String workerId() {
    return workerId;
  }

  /** GET of any path, e.g. {@code /health}; throws {@link UncheckedIOException} if unreachable. */
  public Response get(String path) {
    return send("GET", path, BodyPublishers.noBody());
  }

  /** POST of any path without a body, e.g. a restart; the response whatever its status. */
  public Response post(String path) {
    return send("POST", path, BodyPublishers.noBody());
  }

  /** PUT /connectors/{name}/config: creates or reconfigures the connector. */
  public JsonNode putConfig(String name, Map<String, String> config) {
    return expectOk(send("PUT", connector(name) + "/config", json(config)));
  }

  /**
   * Creates (or reconfigures) the connector and waits until it and {@code tasks} tasks are RUNNING
   * on this worker (see {@link #awaitRunning}).
   */
  public void deploy(String name, Map<String, String> config, int tasks, Duration timeout) {
    putConfig(name, config);
    awaitRunning(name, tasks, timeout);
  }

  /** {@link #deploy(String, Map, int, Duration)} with one task. */
  public void deploy(String name, Map<String, String> config, Duration timeout) {
    deploy(name, config, 1, timeout);
  }

  /** PUT /connectors/{name}/config, returning the response whatever its status. */
  public Response tryPutConfig(String name, Map<String, String> config) {
    return send("PUT", connector(name) + "/config", json(config));
  }

  public JsonNode status(String name) {
    return expectOk(get(connector(name) + "/status"));
  }

  /**
   * Waits until the connector and exactly {@code tasks} tasks are RUNNING on this worker, failing
   * at once when the connector or a task is FAILED. States are checked together with the worker id,
   * because after a restart the status topic still reports the previous worker's RUNNING.
   */
  public void awaitRunning(String name, int tasks, Duration timeout) {
    awaitStatus(
        name,
        timeout,
        "RUNNING with " + tasks + " task(s)",
        status -> {
          failOnFailure(name, status);
          JsonNode taskStates = status.path("tasks");
          boolean running =
              isHere(status.path("connector"), "RUNNING") && taskStates.size() == tasks;
          for (JsonNode task : taskStates) {
            running &= isHere(task, "RUNNING");
          }
          return running ? status : null;
        });
  }

  /**
   * Waits until a task is FAILED on this worker and returns its stack trace; fails at once when the
   * connector itself is FAILED (it would never start tasks).
   */
  public String awaitTaskFailed(String name, Duration timeout) {
    JsonNode failed =
        awaitStatus(
            name,
            timeout,
            "a FAILED task",
            status -> {
              if ("FAILED".equals(status.path("connector").path("state").asText())) {
                throw new AssertionError(
                    "Connector " + name + " failed: " + status.toPrettyString());
              }
              for (JsonNode task : status.path("tasks")) {
                if (isHere(task, "FAILED")) {
                  return task;
                }
              }
              return null;
            });
    return failed.path("trace").asText();
  }

  /** PUT /connectors/{name}/stop: the connector stays configured, with no tasks. */
  public void stop(String name) {
    expectOk(send("PUT", connector(name) + "/stop", BodyPublishers.noBody()));
  }

  public void awaitStopped(String name, Duration timeout) {
    awaitStatus(
        name,
        timeout,
        "STOPPED",
        status -> {
          failOnFailure(name, status);
          boolean stopped =
              "STOPPED".equals(status.path("connector").path("state").asText())
                  && status.path("tasks").isEmpty();
          return stopped ? status : null;
        });
  }

  public void resume(String name) {
    expectOk(send("PUT", connector(name) + "/resume", BodyPublishers.noBody()));
  }

  public void delete(String name) {
    expectOk(send("DELETE", connector(name), BodyPublishers.noBody()));
  }

  /** GET /connectors/{name}/offsets: {@code {"offsets":[{"partition":…,"offset":…}]}}. */
  public JsonNode offsets(String name) {
    return expectOk(get(connector(name) + "/offsets"));
  }

  /**
   * Waits until connector {@code name} stored the offset of the start of {@code version} for {@code
   * table}: every version before it is stored, and nothing of it yet.
   */
  public void awaitStoredVersion(String name, String table, long version, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    JsonNode offsets = null;
    while (System.nanoTime() < deadline) {
      offsets = offsets(name);
      for (JsonNode entry : offsets.path("offsets")) {
        if (entry.path("partition").path("table").asText().equals(table)
            && entry.path("offset").path("version").asLong() == version
            && !entry.path("offset").has("file")) {
          return;
        }
      }
      TestSupport.sleep(200);
    }
    throw new AssertionError(
        "Offset of " + table + " never reached version " + version + ": " + offsets);
  }

  /** PATCH /connectors/{name}/offsets; the connector must be STOPPED for a 200. */
  public Response patchOffsets(String name, JsonNode body) {
    return send("PATCH", connector(name) + "/offsets", BodyPublishers.ofString(body.toString()));
  }

  /** DELETE /connectors/{name}/offsets; the connector must be STOPPED for a 200. */
  public Response deleteOffsets(String name) {
    return send("DELETE", connector(name) + "/offsets", BodyPublishers.noBody());
  }

  /**
   * PUT /connector-plugins/{plugin}/config/validate. Adds {@code connector.class} when absent: the
   * worker rejects a config without it.
   */
  public JsonNode validate(String connectorClassSimpleName, Map<String, String> config) {
    Map<String, String> body = new HashMap<>(config);
    body.putIfAbsent("connector.class", connectorClassSimpleName);
    return expectOk(
        send(
            "PUT",
            "/connector-plugins/" + encode(connectorClassSimpleName) + "/config/validate",
            json(body)));
  }

  /** The non-empty error lists of a validate response, by config key, in response order. */
  public static Map<String, List<String>> errorsByKey(JsonNode validateResponse) {
    Map<String, List<String>> errors = new LinkedHashMap<>();
    for (JsonNode config : validateResponse.path("configs")) {
      JsonNode value = config.path("value");
      if (!value.path("errors").isEmpty()) {
        errors.put(
            value.path("name").asText(),
            JSON.convertValue(
                value.path("errors"),
                JSON.getTypeFactory().constructCollectionType(List.class, String.class)));
      }
    }
    return errors;
  }

  /** Polls the status until {@code check} returns non-null; 404s count as "not yet". */
  private JsonNode awaitStatus(
      String name, Duration timeout, String expected, Function<JsonNode, JsonNode> check) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Response last;
    do {
      last = get(connector(name) + "/status");
      if (last.ok()) {
        JsonNode result = check.apply(last.body());
        if (result != null) {
          return result;
        }
      }
      sleep();
    } while (System.nanoTime() < deadline);
    throw new AssertionError(
        "Connector "
            + name
            + " not "
            + expected
            + " on "
            + workerId
            + " after "
            + timeout
            + "; last status: "
            + last);
  }

  private static void failOnFailure(String name, JsonNode status) {
    boolean failed = "FAILED".equals(status.path("connector").path("state").asText());
    for (JsonNode task : status.path("tasks")) {
      failed |= "FAILED".equals(task.path("state").asText());
    }
    if (failed) {
      throw new AssertionError("Connector " + name + " failed: " + status.toPrettyString());
    }
  }

  private boolean isHere(JsonNode state, String expected) {
    return expected.equals(state.path("state").asText())
        && workerId.equals(state.path("worker_id").asText());
  }

  private Response send(String method, String path, BodyPublisher body) {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .method(method, body)
            .build();
    try {
      var response = HTTP.send(request, BodyHandlers.ofString());
      return new Response(response.statusCode(), parse(response.body()));
    } catch (IOException e) {
      String death = deathReport.get();
      throw new UncheckedIOException(
          method + " " + request.uri() + ": " + e + (death == null ? "" : "; " + death), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode expectOk(Response response) {
    if (!response.ok()) {
      throw new AssertionError("Unexpected response " + response);
    }
    return response.body();
  }

  private static JsonNode parse(String body) {
    if (body.isEmpty()) {
      return MissingNode.getInstance();
    }
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      return JSON.getNodeFactory().textNode(body); // e.g. Jetty's HTML error pages
    }
  }

  private static BodyPublisher json(Map<String, String> map) {
    try {
      return BodyPublishers.ofString(JSON.writeValueAsString(map));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static String connector(String name) {
    return "/connectors/" + encode(name);
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
