package io.deltacdf.connect.it.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.it.storage.testing.Azurite;
import io.deltacdf.connect.it.storage.testing.UnityCatalogTestServer;
import io.deltacdf.connect.testing.TestSupport;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiClientBuilder;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.api.TemporaryCredentialsApi;
import io.unitycatalog.client.auth.TokenProvider;
import io.unitycatalog.client.model.DataSourceFormat;
import io.unitycatalog.client.model.GenerateTemporaryTableCredential;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TableOperation;
import io.unitycatalog.client.model.TemporaryCredentials;
import io.unitycatalog.hadoop.UCCredentialHadoopConfs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Unity Catalog test server gates Azurite as Unity Catalog gates ADLS: with raw HTTP only (no
 * connector code), a vended SAS reads its table's container and no other, and nothing once it has
 * expired; the catalog answers in the spec's shape without a token, for unknown tables, while
 * refusing renewals; OAuth M2M tokens work as bearer tokens. The real client library
 * (unitycatalog-client and -hadoop) reads its answers.
 */
class UnityCatalogTestServerIT {

  private static final String TOKEN = "pat-reader";
  private static final String ORDERS = "main.sales.orders";
  private static final String RETURNS = "main.sales.returns";
  private static final String ORDERS_CONTAINER = "uc-orders";
  private static final String RETURNS_CONTAINER = "uc-returns";
  private static final String BLOB = "orders/_delta_log/00000000000000000000.json";
  private static final String CONTENT = "{\"commitInfo\":{}}";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Azurite azurite;
  private UnityCatalogTestServer catalog;

  @BeforeAll
  static void writeBlobs() {
    azurite = Azurite.launch();
    String sas =
        Azurite.accountSas("racwdl", Instant.now().plus(Duration.ofHours(1)), azurite.accountKey());
    for (String container : List.of(ORDERS_CONTAINER, RETURNS_CONTAINER)) {
      String url = azurite.endpoint() + "/" + Azurite.ACCOUNT_NAME + "/" + container;
      HttpRequest create =
          HttpRequest.newBuilder(URI.create(url + "?restype=container&" + sas))
              .PUT(HttpRequest.BodyPublishers.noBody())
              .build();
      assertThat(send(create).statusCode()).isEqualTo(201);
      HttpRequest put =
          HttpRequest.newBuilder(URI.create(url + "/" + BLOB + "?" + sas))
              .header("x-ms-blob-type", "BlockBlob")
              .PUT(HttpRequest.BodyPublishers.ofString(CONTENT))
              .build();
      assertThat(send(put).statusCode()).isEqualTo(201);
    }
  }

  @AfterAll
  static void stopAzurite() {
    if (azurite != null) {
      azurite.close();
    }
  }

  @BeforeEach
  void startCatalog() {
    catalog = UnityCatalogTestServer.start(azurite.accountKey());
    catalog.addToken(TOKEN);
    catalog.addTable(ORDERS, Azurite.uri(ORDERS_CONTAINER, "orders"), ORDERS_CONTAINER);
    catalog.addTable(RETURNS, Azurite.uri(RETURNS_CONTAINER, "returns"), RETURNS_CONTAINER);
  }

  @AfterEach
  void stopCatalog() {
    catalog.close();
  }

  @Test
  void vendedSasReadsItsTablesContainerOnlyAndOnlyUntilItExpires() {
    catalog.credentialLifetime(Duration.ofSeconds(3));
    JsonNode table = json(api("GET", "/tables/" + ORDERS, null, TOKEN), 200);
    assertThat(table.get("storage_location").asText())
        .isEqualTo(Azurite.uri(ORDERS_CONTAINER, "orders"));
    assertThat(table.get("data_source_format").asText()).isEqualTo("DELTA");

    JsonNode credentials = json(requestCredentials(table.get("table_id").asText(), TOKEN), 200);
    String sas = credentials.at("/azure_user_delegation_sas/sas_token").asText();
    long expiry = credentials.get("expiration_time").asLong();
    assertThat(sas).doesNotStartWith("?").contains("sr=c", "sp=rl");
    assertThat(Instant.parse(param(sas, "se"))).isEqualTo(Instant.ofEpochMilli(expiry));

    HttpResponse<String> own = getBlob(ORDERS_CONTAINER, sas);
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(own.body()).isEqualTo(CONTENT);
    assertThat(getBlob(RETURNS_CONTAINER, sas).statusCode()).isEqualTo(403);

    TestSupport.sleep(Math.max(0, expiry + 1_000 - System.currentTimeMillis()));
    assertThat(getBlob(ORDERS_CONTAINER, sas).statusCode()).isEqualTo(403);

    assertThat(catalog.credentialRequests()).isEqualTo(1);
    assertThat(catalog.credentialRequestTables()).containsExactly(ORDERS);
    assertThat(catalog.vendedSasTokens()).containsExactly(sas);
  }

  @Test
  void catalogAnswersErrorsInUnityCatalogsShape() {
    JsonNode missing = json(api("GET", "/tables/" + ORDERS, null, null), 401);
    assertThat(missing.get("error_code").asText()).isEqualTo("UNAUTHENTICATED");
    assertThat(missing.get("message").asText()).isNotBlank();
    json(api("GET", "/tables/" + ORDERS, null, "unknown-token"), 401);

    JsonNode unknown = json(api("GET", "/tables/main.sales.nothing", null, TOKEN), 404);
    assertThat(unknown.get("error_code").asText()).isEqualTo("TABLE_DOES_NOT_EXIST");
    assertThat(unknown.get("message").asText())
        .isEqualTo("Table 'main.sales.nothing' does not exist.");

    String ordersId =
        json(api("GET", "/tables/" + ORDERS, null, TOKEN), 200).get("table_id").asText();
    json(requestCredentials(ordersId, null), 401);

    catalog.refuseRenewals(true);
    JsonNode refused = json(requestCredentials(ordersId, TOKEN), 503);
    assertThat(refused.get("error_code").asText()).isEqualTo("TEMPORARILY_UNAVAILABLE");
    catalog.refuseRenewals(false);
    json(requestCredentials(ordersId, TOKEN), 200);

    catalog.denyExternalUse(ORDERS);
    JsonNode denied = json(requestCredentials(ordersId, TOKEN), 403);
    assertThat(denied.get("error_code").asText()).isEqualTo("PERMISSION_DENIED");
    assertThat(denied.get("message").asText())
        .isEqualTo("User does not have EXTERNAL USE SCHEMA on Schema 'main.sales'.");

    catalog.addNonDeltaTable("main.sales.legacy", Azurite.uri(ORDERS_CONTAINER, "legacy"));
    assertThat(
            json(api("GET", "/tables/main.sales.legacy", null, TOKEN), 200)
                .get("data_source_format")
                .asText())
        .isEqualTo("PARQUET");

    assertThat(catalog.credentialRequests()).isEqualTo(1);
  }

  @Test
  void oauthM2mTokensAreAcceptedAsBearerTokens() {
    catalog.addServicePrincipal("sp-reader", "sp-secret");
    JsonNode issued = json(requestToken("sp-reader", "sp-secret"), 200);
    assertThat(issued.get("token_type").asText()).isEqualTo("Bearer");
    assertThat(issued.get("expires_in").asLong()).isEqualTo(3600);
    String token = issued.get("access_token").asText();
    json(api("GET", "/tables/" + ORDERS, null, token), 200);

    JsonNode wrong = json(requestToken("sp-reader", "not-the-secret"), 401);
    assertThat(wrong.get("error").asText()).isEqualTo("invalid_client");
    json(requestToken("someone-else", "sp-secret"), 401);

    catalog.tokenLifetime(Duration.ofSeconds(1));
    String shortLived =
        json(requestToken("sp-reader", "sp-secret"), 200).get("access_token").asText();
    TestSupport.sleep(1_500);
    json(api("GET", "/tables/" + ORDERS, null, shortLived), 401);
  }

  @Test
  void clientLibraryReadsTheServersAnswers() throws ApiException {
    ApiClient client =
        ApiClientBuilder.create()
            .uri(catalog.uri())
            .tokenProvider(TokenProvider.create(Map.of("type", "static", "token", TOKEN)))
            .build();
    TablesApi tables = new TablesApi(client);
    TableInfo info = tables.getTable(ORDERS, null, null);
    assertThat(info.getDataSourceFormat()).isEqualTo(DataSourceFormat.DELTA);
    assertThat(info.getStorageLocation()).isEqualTo(Azurite.uri(ORDERS_CONTAINER, "orders"));
    assertThatThrownBy(() -> tables.getTable("main.sales.nothing", null, null))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(404);
              assertThat(e.getResponseBody()).contains("TABLE_DOES_NOT_EXIST");
            });

    TemporaryCredentials credentials =
        new TemporaryCredentialsApi(client)
            .generateTemporaryTableCredentials(
                new GenerateTemporaryTableCredential()
                    .tableId(info.getTableId())
                    .operation(TableOperation.READ));
    assertThat(catalog.vendedSasTokens())
        .contains(credentials.getAzureUserDelegationSas().getSasToken());
    assertThat(credentials.getExpirationTime()).isGreaterThan(System.currentTimeMillis());

    // The Hadoop library, with an OAuth M2M principal: the settings hadoop-azure is given.
    catalog.addServicePrincipal("sp-reader", "sp-secret");
    TokenProvider oauth =
        TokenProvider.create(
            Map.of(
                "type", "oauth",
                "oauth.uri", catalog.oauthTokenUri(),
                "oauth.clientId", "sp-reader",
                "oauth.clientSecret", "sp-secret"));
    Map<String, String> hadoop =
        UCCredentialHadoopConfs.builder(catalog.uri(), "abfs")
            .tokenProvider(oauth)
            .buildForTable(info.getTableId(), UCCredentialHadoopConfs.TableOperation.READ);
    String sas = hadoop.get("fs.azure.init.sas.token");
    assertThat(catalog.vendedSasTokens()).contains(sas);
    assertThat(hadoop)
        .containsEntry("fs.azure.account.auth.type", "SAS")
        .containsEntry(
            "fs.azure.sas.token.provider.type",
            "io.unitycatalog.hadoop.internal.auth.AbfsVendedTokenProvider")
        .containsEntry("fs.unitycatalog.uri", catalog.uri())
        .containsEntry("fs.unitycatalog.table.id", info.getTableId());
    assertThat(getBlob(ORDERS_CONTAINER, sas).statusCode()).isEqualTo(200);
    assertThat(catalog.credentialRequests()).isEqualTo(2);
  }

  private HttpResponse<String> api(String method, String path, String body, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(catalog.uri() + "/api/2.1/unity-catalog" + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return send(request.build());
  }

  private HttpResponse<String> requestCredentials(String tableId, String token) {
    return api(
        "POST",
        "/temporary-table-credentials",
        "{\"table_id\":\"" + tableId + "\",\"operation\":\"READ\"}",
        token);
  }

  private HttpResponse<String> requestToken(String clientId, String secret) {
    String basic =
        Base64.getEncoder()
            .encodeToString((clientId + ":" + secret).getBytes(StandardCharsets.UTF_8));
    return send(
        HttpRequest.newBuilder(URI.create(catalog.oauthTokenUri()))
            .header("Authorization", "Basic " + basic)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&scope=all-apis"))
            .build());
  }

  private static HttpResponse<String> getBlob(String container, String sas) {
    String url =
        azurite.endpoint() + "/" + Azurite.ACCOUNT_NAME + "/" + container + "/" + BLOB + "?" + sas;
    return send(HttpRequest.newBuilder(URI.create(url)).GET().build());
  }

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The JSON body of a response that must have {@code status}. */
  private static JsonNode json(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String param(String query, String name) {
    for (String pair : query.split("&")) {
      if (pair.startsWith(name + "=")) {
        return URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
      }
    }
    throw new AssertionError("No " + name + " in " + query);
  }
}
