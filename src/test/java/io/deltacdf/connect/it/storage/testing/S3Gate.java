package io.deltacdf.connect.it.storage.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.deltacdf.connect.testing.S3Mock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pass-through to S3Mock that can be switched to answer every request as S3 answers one signed
 * with a wrong secret: 403 with error code SignatureDoesNotMatch (no body for HEAD, as with S3), or
 * to answer the requests for some objects as an overloaded S3 does (503 SlowDown). Enough of a
 * proxy for reads: method, path, query, headers and body go through.
 */
public final class S3Gate implements AutoCloseable {

  private static final Set<String> NOT_FORWARDED =
      Set.of(
          "host",
          "connection",
          "content-length",
          "expect",
          "upgrade",
          "transfer-encoding",
          "keep-alive",
          "te",
          "trailer",
          "proxy-connection");
  public static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final HttpServer server;
  private final String target;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger listRequests = new AtomicInteger();
  private volatile boolean denying;

  /** Which signed requests are let through; null lets every one through. */
  private volatile CredentialCheck credentials;

  /** A store's check of a request's credentials, as far as a gate can see them. */
  @FunctionalInterface
  public interface CredentialCheck {
    /**
     * @param accessKeyId the access key a SigV4 request is signed with, null when unsigned
     * @param sessionToken its {@code x-amz-security-token}, null when none
     * @param path the request's path, {@code /<bucket>/<key>} (path-style)
     */
    boolean allows(String accessKeyId, String sessionToken, String path);
  }

  /** Requests whose path contains this are answered 503; null when none are. */
  private volatile String unavailable;

  private S3Gate(HttpServer server, String target) {
    this.server = server;
    this.target = target;
  }

  public static S3Gate start(String target) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      S3Gate gate = new S3Gate(server, target);
      server.createContext("/", gate::handle);
      server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
      server.start();
      return gate;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public void deny(boolean deny) {
    denying = deny;
  }

  /**
   * From now on, answers 403 AccessDenied to every request whose signing key and session token
   * {@code check} does not allow (S3 checks the signature too; S3Mock behind does not).
   */
  public void requireCredentials(CredentialCheck check) {
    credentials = check;
  }

  /** The access key id in a SigV4 Authorization header: {@code Credential=<id>/<date>/...}. */
  private static String accessKeyId(String authorization) {
    if (authorization == null) {
      return null;
    }
    int at = authorization.indexOf("Credential=");
    if (at < 0) {
      return null;
    }
    int from = at + "Credential=".length();
    int slash = authorization.indexOf('/', from);
    return slash < 0 ? null : authorization.substring(from, slash);
  }

  /**
   * Answers 503 SlowDown to requests whose path contains {@code pathPart}, until cleared (null).
   */
  public void unavailable(String pathPart) {
    unavailable = pathPart;
  }

  public int requests() {
    return requests.get();
  }

  /** The ListObjects requests (V1 or V2) so far. */
  public int listRequests() {
    return listRequests.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    String query = exchange.getRequestURI().getRawQuery();
    if ("GET".equals(exchange.getRequestMethod())
        && query != null
        && (query.contains("list-type=") || query.contains("prefix="))) {
      listRequests.incrementAndGet();
    }
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String slow = unavailable;
      CredentialCheck check = credentials;
      if (denying) {
        deny(exchange);
      } else if (check != null
          && !check.allows(
              accessKeyId(exchange.getRequestHeaders().getFirst("Authorization")),
              exchange.getRequestHeaders().getFirst("x-amz-security-token"),
              exchange.getRequestURI().getPath())) {
        error(exchange, 403, "AccessDenied", "Access Denied");
      } else if (slow != null && exchange.getRequestURI().getPath().contains(slow)) {
        error(exchange, 503, "SlowDown", "Please reduce your request rate.");
      } else {
        forward(exchange, body);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void forward(HttpExchange exchange, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
            .timeout(Duration.ofSeconds(30))
            .method(
                exchange.getRequestMethod(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> request.header(name, value));
              }
            });
    HttpResponse<byte[]> response =
        CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    response
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              String lower = name.toLowerCase(Locale.ROOT);
              boolean head = "HEAD".equals(exchange.getRequestMethod());
              if (!NOT_FORWARDED.contains(lower) || (head && lower.equals("content-length"))) {
                values.forEach(value -> exchange.getResponseHeaders().add(name, value));
              }
            });
    byte[] payload = response.body();
    boolean noBody = "HEAD".equals(exchange.getRequestMethod()) || payload.length == 0;
    exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : payload.length);
    if (!noBody) {
      exchange.getResponseBody().write(payload);
    }
  }

  private static void deny(HttpExchange exchange) throws IOException {
    error(
        exchange,
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not"
            + " match the signature you provided. Check your key and signing method.");
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    String requestId = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    exchange.getResponseHeaders().add("x-amz-request-id", requestId);
    exchange.getResponseHeaders().add("Content-Type", "application/xml");
    if ("HEAD".equals(exchange.getRequestMethod())) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    byte[] xml =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>"
                + "<Code>"
                + code
                + "</Code><Message>"
                + message
                + "</Message>"
                + "<AWSAccessKeyId>"
                + S3Mock.ACCESS_KEY
                + "</AWSAccessKeyId>"
                + "<RequestId>"
                + requestId
                + "</RequestId></Error>")
            .getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, xml.length);
    exchange.getResponseBody().write(xml);
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
