package io.deltacdf.connect.it.storage.testing;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A stand-in for Unity Catalog's REST API, built from its published OpenAPI spec ({@code
 * api/all.yaml}) and implementing only the endpoints the connector's client library calls: {@code
 * GET /tables/{full_name}}, {@code POST /temporary-table-credentials}, and Databricks' OAuth M2M
 * token endpoint {@code POST /oidc/v1/token}. Not a real Unity Catalog: no catalogs, schemas,
 * grants or writes, only what a test registers.
 *
 * <p>Credentials are vended for Azurite's account {@code devstoreaccount1}: a service SAS for the
 * table's container (read and list), signed with the account key, in {@code
 * azure_user_delegation_sas.sas_token} as Unity Catalog on Azure answers.
 *
 * <p>The client is given {@link #uri()}, {@code http://127.0.0.1:<port>} with no path and no
 * trailing slash: unitycatalog-client's {@code ApiClientBuilder} appends {@code
 * /api/2.1/unity-catalog} to the URI's path itself (a trailing slash would make it {@code
 * //api/...}), as for a Databricks workspace URL.
 */
public final class UnityCatalogTestServer implements AutoCloseable {

  private static final String API = "/api/2.1/unity-catalog";
  private static final String TABLES = API + "/tables/";
  private static final String CREDENTIALS = API + "/temporary-table-credentials";
  private static final String OAUTH_TOKEN = "/oidc/v1/token";
  private static final String COMMITS = API + "/delta/preview/commits";
  private static final String SAS_VERSION = "2020-12-06";
  private static final String SAS_PROTOCOLS = "https,http";
  private static final String SAS_PERMISSIONS = "rl";
  private static final Duration DEFAULT_LIFETIME = Duration.ofHours(1);
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .setSerializationInclusion(JsonInclude.Include.NON_NULL);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final HttpServer server;
  private final ExecutorService executor;
  private final byte[] accountKey;
  // By lower-case full name: Unity Catalog names are case-insensitive.
  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final Set<String> deniedTables = ConcurrentHashMap.newKeySet();
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private final Map<String, String> secrets = new ConcurrentHashMap<>();
  private final Map<String, Instant> issuedTokens = new ConcurrentHashMap<>();
  private final List<String> credentialRequestTables = new CopyOnWriteArrayList<>();
  private final Set<String> vendedSasTokens = ConcurrentHashMap.newKeySet();
  private final Map<String, VendedAwsCredential> vendedAws = new ConcurrentHashMap<>();

  /** The ratified, unpublished commits of catalog-managed tables, by table id. */
  private final Map<String, List<RatifiedCommit>> ratified = new ConcurrentHashMap<>();

  private volatile Duration credentialLifetime = DEFAULT_LIFETIME;
  private volatile Duration tokenLifetime = DEFAULT_LIFETIME;
  private volatile boolean refuseRenewals;

  private UnityCatalogTestServer(HttpServer server, ExecutorService executor, String accountKey) {
    this.server = server;
    this.executor = executor;
    this.accountKey = Base64.getDecoder().decode(accountKey);
  }

  /**
   * Starts the server on a free port of 127.0.0.1, vending SAS tokens signed with {@code
   * accountKey}, the base64 key of Azurite's {@code devstoreaccount1}.
   */
  public static UnityCatalogTestServer start(String accountKey) {
    try {
      // Port 0: the port need not be known before the server binds it, so no race for it.
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      ExecutorService executor = Executors.newFixedThreadPool(4);
      UnityCatalogTestServer catalog = new UnityCatalogTestServer(server, executor, accountKey);
      server.createContext("/", catalog::handle);
      server.setExecutor(executor);
      server.start();
      return catalog;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The URI the client library is given: {@code http://127.0.0.1:<port>}. */
  public String uri() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The OAuth M2M token endpoint, {@code <uri>/oidc/v1/token} as on Databricks. */
  public String oauthTokenUri() {
    return uri() + OAUTH_TOKEN;
  }

  /** Accepts {@code Authorization: Bearer <token>}, as a personal access token. */
  public void addToken(String token) {
    tokens.add(token);
  }

  /** A service principal that gets access tokens with the client-credentials grant. */
  public void addServicePrincipal(String clientId, String secret) {
    secrets.put(clientId, secret);
  }

  /** How long the access tokens issued from now on are valid (default 1 h). */
  public void tokenLifetime(Duration lifetime) {
    tokenLifetime = lifetime;
  }

  /**
   * A Delta table {@code catalog.schema.table} at {@code location} (an abfs:// URI on Azurite)
   * whose files are in Azurite container {@code container}, with a random table id.
   */
  public void addTable(String fullName, String location, String container) {
    register(fullName, location, container, "DELTA");
  }

  /**
   * A Delta table on S3 ({@code s3://<bucket>/...}): credentials vended for it are AWS session
   * credentials that {@link #allowsS3} accepts for its bucket until they expire.
   */
  public void addS3Table(String fullName, String location) {
    register(fullName, location, null, "DELTA");
  }

  /**
   * A local Delta table ({@code file:} location), as an open-source Unity Catalog server keeps
   * them: no credentials are vended for it.
   */
  public void addLocalTable(String fullName, String location) {
    register(fullName, location, null, "DELTA");
  }

  /**
   * Ratifies {@code stagedFile} (in {@code _delta_log/_staged_commits/}) as commit {@code version}
   * of catalog-managed table {@code fullName}, committed at {@code timestamp} (its in-commit
   * timestamp): {@code GET /delta/preview/commits} lists it from now on.
   */
  public void ratify(String fullName, long version, java.nio.file.Path stagedFile, long timestamp) {
    try {
      ratified
          .computeIfAbsent(table(fullName).tableId(), id -> new CopyOnWriteArrayList<>())
          .add(
              new RatifiedCommit(
                  version,
                  timestamp,
                  stagedFile.getFileName().toString(),
                  java.nio.file.Files.size(stagedFile),
                  java.nio.file.Files.getLastModifiedTime(stagedFile).toMillis()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Whether a request signed with access key {@code accessKeyId} and session token {@code
   * sessionToken} may read {@code path} (path-style: {@code /<bucket>/...}): only credentials
   * vended here, for that bucket, and not expired.
   */
  public boolean allowsS3(String accessKeyId, String sessionToken, String path) {
    VendedAwsCredential vended = accessKeyId == null ? null : vendedAws.get(accessKeyId);
    return vended != null
        && vended.sessionToken().equals(sessionToken)
        && Instant.now().isBefore(vended.expiry())
        && (path.equals("/" + vended.bucket()) || path.startsWith("/" + vended.bucket() + "/"));
  }

  /** A Parquet table at {@code location}, an {@code abfs://<container>@...} URI. */
  public void addNonDeltaTable(String fullName, String location) {
    String container = URI.create(location).getUserInfo();
    if (container == null) {
      throw new IllegalArgumentException("Not an abfs://<container>@<host> URI: " + location);
    }
    register(fullName, location, container, "PARQUET");
  }

  /**
   * Credential requests for the table are refused (403 PERMISSION_DENIED) as when the principal
   * lacks EXTERNAL USE SCHEMA on the table's schema; the table itself stays readable.
   */
  public void denyExternalUse(String fullName) {
    deniedTables.add(table(fullName).fullName());
  }

  /** How long the SAS tokens vended from now on are valid (default 1 h). */
  public void credentialLifetime(Duration lifetime) {
    credentialLifetime = lifetime;
  }

  /** While true, credential requests answer 503 TEMPORARILY_UNAVAILABLE. */
  public void refuseRenewals(boolean refuse) {
    refuseRenewals = refuse;
  }

  /** The credentials vended so far. */
  public int credentialRequests() {
    return credentialRequestTables.size();
  }

  /** The full names of the tables credentials were vended for, in order. */
  public List<String> credentialRequestTables() {
    return List.copyOf(credentialRequestTables);
  }

  /** The catalog's id of the table {@code fullName}. */
  public String tableIdOf(String fullName) {
    return table(fullName).tableId();
  }

  /** Every SAS token vended so far, to check that none appears where a secret must not. */
  public Set<String> vendedSasTokens() {
    return Set.copyOf(vendedSasTokens);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void register(String fullName, String location, String container, String format) {
    String name = fullName.toLowerCase(Locale.ROOT);
    if (name.split("\\.", -1).length != 3) {
      throw new IllegalArgumentException("Not catalog.schema.table: " + fullName);
    }
    tables.put(
        name,
        new Table(
            name,
            UUID.randomUUID().toString(),
            location,
            container,
            format,
            System.currentTimeMillis()));
  }

  private Table table(String fullName) {
    Table table = tables.get(fullName.toLowerCase(Locale.ROOT));
    if (table == null) {
      throw new IllegalArgumentException("No table " + fullName);
    }
    return table;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      Reply reply = route(exchange, new String(body, StandardCharsets.UTF_8));
      byte[] json = JSON.writeValueAsBytes(reply.body());
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(reply.status(), json.length);
      exchange.getResponseBody().write(json);
    }
  }

  private Reply route(HttpExchange exchange, String body) {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    if (method.equals("POST") && path.equals(OAUTH_TOKEN)) {
      return issueToken(exchange.getRequestHeaders().getFirst("Authorization"), body);
    }
    boolean getTable = method.equals("GET") && path.startsWith(TABLES);
    boolean credentials = method.equals("POST") && path.equals(CREDENTIALS);
    boolean commits = method.equals("GET") && path.equals(COMMITS);
    if (!getTable && !credentials && !commits) {
      return Reply.error(
          404, "ENDPOINT_NOT_FOUND", "No API found for '" + method + " " + path + "'");
    }
    if (!authenticated(exchange.getRequestHeaders().getFirst("Authorization"))) {
      return Reply.error(401, "UNAUTHENTICATED", "Invalid or missing access token.");
    }
    if (commits) {
      return ratifiedCommits(body);
    }
    return getTable ? getTable(path.substring(TABLES.length())) : vendCredential(body);
  }

  private boolean authenticated(String authorization) {
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      return false;
    }
    String token = authorization.substring("Bearer ".length());
    Instant expiry = issuedTokens.get(token);
    return tokens.contains(token) || (expiry != null && Instant.now().isBefore(expiry));
  }

  private Reply getTable(String fullName) {
    Table table = tables.get(fullName.toLowerCase(Locale.ROOT));
    if (table == null) {
      return Reply.error(404, "TABLE_DOES_NOT_EXIST", "Table '" + fullName + "' does not exist.");
    }
    String[] parts = table.fullName().split("\\.");
    return new Reply(
        200,
        new TableInfo(
            parts[2],
            parts[0],
            parts[1],
            "EXTERNAL",
            table.format(),
            table.location(),
            table.tableId(),
            table.createdAt()));
  }

  /** The spec's getCommits: a GET whose JSON body names the table; the unpublished commits. */
  private Reply ratifiedCommits(String body) {
    String tableId;
    try {
      tableId = JSON.readTree(body).path("table_id").asText(null);
    } catch (IOException e) {
      return Reply.error(400, "MALFORMED_REQUEST", "Malformed JSON: " + e.getMessage());
    }
    if (tables.values().stream().noneMatch(t -> t.tableId().equals(tableId))) {
      return Reply.error(
          404, "TABLE_DOES_NOT_EXIST", "Table with id '" + tableId + "' does not exist.");
    }
    List<RatifiedCommit> commits = ratified.getOrDefault(tableId, List.of());
    long latest = commits.stream().mapToLong(RatifiedCommit::version).max().orElse(-1);
    return new Reply(200, new GetCommitsResponse(commits, latest));
  }

  private Reply vendCredential(String body) {
    if (refuseRenewals) {
      return Reply.error(503, "TEMPORARILY_UNAVAILABLE", "The service is temporarily unavailable.");
    }
    String tableId;
    String operation;
    try {
      JsonNode request = JSON.readTree(body);
      tableId = request.path("table_id").asText(null);
      operation = request.path("operation").asText(null);
    } catch (IOException e) {
      return Reply.error(400, "MALFORMED_REQUEST", "Malformed JSON: " + e.getMessage());
    }
    if (tableId == null || operation == null) {
      return Reply.error(
          400, "INVALID_PARAMETER_VALUE", "Both table_id and operation are required.");
    }
    Table table =
        tables.values().stream().filter(t -> t.tableId().equals(tableId)).findAny().orElse(null);
    if (table == null) {
      return Reply.error(
          404, "TABLE_DOES_NOT_EXIST", "Table with id '" + tableId + "' does not exist.");
    }
    if (deniedTables.contains(table.fullName())) {
      String schema = table.fullName().substring(0, table.fullName().lastIndexOf('.'));
      return Reply.error(
          403,
          "PERMISSION_DENIED",
          "User does not have EXTERNAL USE SCHEMA on Schema '" + schema + "'.");
    }
    // Read-only principal: the SAS vended is read and list only.
    if (!operation.equals("READ")) {
      return Reply.error(
          403,
          "PERMISSION_DENIED",
          "User does not have MODIFY on Table '" + table.fullName() + "'.");
    }
    Instant expiry = Instant.now().plus(credentialLifetime).truncatedTo(ChronoUnit.SECONDS);
    credentialRequestTables.add(table.fullName());
    if (table.container() == null) {
      AwsTempCredentials aws =
          new AwsTempCredentials(
              "ASIA" + random(16).toUpperCase(Locale.ROOT), random(40), random(64));
      vendedAws.put(
          aws.accessKeyId(),
          new VendedAwsCredential(
              aws.sessionToken(), URI.create(table.location()).getHost(), expiry));
      return new Reply(
          200, new TemporaryCredentials(null, aws, expiry.toEpochMilli(), table.location()));
    }
    String sas = containerSas(table.container(), expiry);
    vendedSasTokens.add(sas);
    return new Reply(
        200,
        new TemporaryCredentials(
            new AzureUserDelegationSas(sas), null, expiry.toEpochMilli(), table.location()));
  }

  /**
   * A service SAS for a container, signed with the account key: the 16-line string-to-sign of
   * versions 2020-12-06 and later (Azure's "Create a service SAS"), unused fields empty.
   */
  private String containerSas(String container, Instant expiry) {
    String expiryText = DateTimeFormatter.ISO_INSTANT.format(expiry);
    String stringToSign =
        String.join(
            "\n",
            SAS_PERMISSIONS,
            "", // signedStart
            expiryText,
            "/blob/" + Azurite.ACCOUNT_NAME + "/" + container,
            "", // signedIdentifier
            "", // signedIP
            SAS_PROTOCOLS,
            SAS_VERSION,
            "c", // signedResource: the container
            "", // signedSnapshotTime
            "", // signedEncryptionScope
            "", // rscc
            "", // rscd
            "", // rsce
            "", // rscl
            ""); // rsct
    return "sv="
        + SAS_VERSION
        + "&spr="
        + encode(SAS_PROTOCOLS)
        + "&se="
        + encode(expiryText)
        + "&sr=c&sp="
        + SAS_PERMISSIONS
        + "&sig="
        + encode(hmac(stringToSign));
  }

  private String hmac(String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(accountKey, "HmacSHA256"));
      return Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The client-credentials grant with HTTP Basic client authentication, as Databricks' OIDC. */
  private Reply issueToken(String authorization, String form) {
    Map<String, String> fields = formFields(form);
    if (!"client_credentials".equals(fields.get("grant_type"))) {
      return new Reply(
          400, new OAuthError("unsupported_grant_type", "Only client_credentials is supported."));
    }
    String[] client = basicCredentials(authorization);
    if (client == null || !client[1].equals(secrets.get(client[0]))) {
      return new Reply(401, new OAuthError("invalid_client", "Client authentication failed."));
    }
    String token = randomToken();
    Duration lifetime = tokenLifetime;
    issuedTokens.put(token, Instant.now().plus(lifetime));
    return new Reply(
        200,
        new OAuthToken(
            token, "Bearer", lifetime.toSeconds(), fields.getOrDefault("scope", "all-apis")));
  }

  private static String[] basicCredentials(String authorization) {
    if (authorization == null || !authorization.startsWith("Basic ")) {
      return null;
    }
    String decoded;
    try {
      decoded =
          new String(
              Base64.getDecoder().decode(authorization.substring("Basic ".length())),
              StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    int colon = decoded.indexOf(':');
    return colon < 0
        ? null
        : new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
  }

  private static Map<String, String> formFields(String form) {
    Map<String, String> fields = new HashMap<>();
    for (String pair : form.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        fields.put(
            URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return fields;
  }

  private static String randomToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String random(int chars) {
    return UUID.randomUUID()
        .toString()
        .replace("-", "")
        .repeat(2)
        .substring(0, Math.min(chars, 64));
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private record Table(
      String fullName,
      String tableId,
      String location,
      String container,
      String format,
      long createdAt) {}

  private record Reply(int status, Object body) {
    static Reply error(int status, String errorCode, String message) {
      return new Reply(status, new ErrorBody(errorCode, message));
    }
  }

  // Response bodies, named as in the spec: the mapper writes them in snake_case.

  private record TableInfo(
      String name,
      String catalogName,
      String schemaName,
      String tableType,
      String dataSourceFormat,
      String storageLocation,
      String tableId,
      long createdAt) {}

  private record TemporaryCredentials(
      AzureUserDelegationSas azureUserDelegationSas,
      AwsTempCredentials awsTempCredentials,
      long expirationTime,
      String url) {}

  private record RatifiedCommit(
      long version,
      long timestamp,
      String fileName,
      long fileSize,
      long fileModificationTimestamp) {}

  private record GetCommitsResponse(List<RatifiedCommit> commits, long latestTableVersion) {}

  private record AwsTempCredentials(
      String accessKeyId, String secretAccessKey, String sessionToken) {}

  /** AWS session credentials vended for the tables of one bucket, until {@code expiry}. */
  private record VendedAwsCredential(String sessionToken, String bucket, Instant expiry) {}

  private record AzureUserDelegationSas(String sasToken) {}

  /** Databricks' error body (the spec defines none): error_code and message. */
  private record ErrorBody(String errorCode, String message) {}

  private record OAuthToken(String accessToken, String tokenType, long expiresIn, String scope) {}

  private record OAuthError(String error, String errorDescription) {}
}
