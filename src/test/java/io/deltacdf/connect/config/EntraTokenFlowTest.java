package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.azurebfs.AbfsConfiguration;
import org.apache.hadoop.fs.azurebfs.oauth2.AzureADAuthenticator;
import org.apache.hadoop.fs.azurebfs.oauth2.AzureADToken;
import org.apache.hadoop.fs.azurebfs.oauth2.ClientCredsTokenProvider;
import org.apache.hadoop.fs.azurebfs.oauth2.MsiTokenProvider;
import org.apache.hadoop.fs.azurebfs.oauth2.WorkloadIdentityTokenProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client-credentials, managed-identity and workload-identity flows our azure.* settings set up,
 * run by ABFS's own token providers against a local token endpoint built from Entra ID's published
 * v1 token API (Entra ID itself cannot be reached here): it checks the tenant in the path, the
 * grant, the client id and secret and that the token is asked for Azure Storage, as Entra ID would,
 * and refuses otherwise.
 */
class EntraTokenFlowTest {

  private static final String TENANT = "72f988bf-0000-0000-0000-2d7cd011db47";
  private static final String HOST = "onelake.dfs.fabric.microsoft.com";

  /** Where Azure's instance metadata service issues managed identities' tokens. */
  private static final String MSI_PATH = "/metadata/identity/oauth2/token";

  private static final String FEDERATED_TOKEN = "eyJhbGciOiJSUzI1NiJ9.federated.signature";

  @TempDir Path dir;
  private HttpServer server;
  private final List<Map<String, String>> requests = new java.util.ArrayList<>();

  @BeforeEach
  void startTokenEndpoint() throws Exception {
    // ABFS sets its token retry policy when a file system starts; one try, as no file system does.
    Configuration retries = new Configuration();
    retries.setInt("fs.azure.oauth.token.fetch.retry.max.retries", 0);
    AzureADAuthenticator.init(new AbfsConfiguration(retries, HOST));
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          if (path.equals(MSI_PATH)) {
            // The instance metadata service: a GET whose query names the identity and resource,
            // with the Metadata header that proves the caller is not a redirected browser.
            Map<String, String> query = form(exchange.getRequestURI().getRawQuery());
            query.put("path", path);
            query.put("Metadata", exchange.getRequestHeaders().getFirst("Metadata"));
            requests.add(query);
            boolean identity =
                exchange.getRequestMethod().equals("GET")
                    && "true".equals(query.get("Metadata"))
                    && query.get("api-version") != null
                    && "https://storage.azure.com/".equals(query.get("resource"))
                    && "mi-client-id".equals(query.get("client_id"));
            answer(
                exchange,
                identity,
                "{\"error\":\"invalid_request\",\"error_description\":\"Identity not found\"}",
                400);
            return;
          }
          Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes()));
          form.put("path", path);
          requests.add(form);
          boolean clientSecret =
              path.equals("/" + TENANT + "/oauth2/token")
                  && "app-secret".equals(form.get("client_secret"))
                  && "https://storage.azure.com/".equals(form.get("resource"));
          // Workload identity: the federated token as a JWT-bearer client assertion (v2 API).
          boolean federated =
              path.equals("/" + TENANT + "/oauth2/v2.0/token")
                  && FEDERATED_TOKEN.equals(form.get("client_assertion"))
                  && "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
                      .equals(form.get("client_assertion_type"))
                  && "https://storage.azure.com/.default".equals(form.get("scope"));
          boolean valid =
              (clientSecret || federated)
                  && "client_credentials".equals(form.get("grant_type"))
                  && "app-id".equals(form.get("client_id"));
          answer(
              exchange,
              valid,
              "{\"error\":\"invalid_client\",\"error_description\":\"AADSTS7000215\"}",
              401);
        });
    server.start();
  }

  /**
   * The token when the request is {@code valid}, else {@code error} with {@code status}. The
   * token's expiry is given both ways: Entra ID's v1 API and the metadata service send {@code
   * expires_on} (epoch seconds) too, which ABFS's managed-identity flow requires.
   */
  private static void answer(
      com.sun.net.httpserver.HttpExchange exchange, boolean valid, String error, int status)
      throws IOException {
    long expiresOn = java.time.Instant.now().plusSeconds(3599).getEpochSecond();
    byte[] body =
        (valid
                ? "{\"token_type\":\"Bearer\",\"expires_in\":\"3599\",\"expires_on\":\""
                    + expiresOn
                    + "\",\"access_token\":\"storage-token\"}"
                : error)
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(valid ? 200 : status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static Map<String, String> form(String body) {
    Map<String, String> form = new HashMap<>();
    for (String pair : body.split("&")) {
      String[] kv = pair.split("=", 2);
      if (kv.length == 2) {
        form.put(
            URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
            URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
      }
    }
    return form;
  }

  private ClientCredsTokenProvider provider(String secret) {
    Map<String, String> hadoop =
        new DeltaCdfSourceConfig(
                ConnectorConfig.forTables("abfss://ws@" + HOST + "/Shop.Lakehouse/Tables/orders")
                    .with("azure.auth.type", "client-credentials")
                    .with("azure.oauth.client.id", "app-id")
                    .with("azure.oauth.client.secret", secret)
                    .with("azure.oauth.tenant.id", TENANT)
                    .with(
                        "azure.oauth.authority",
                        "http://127.0.0.1:" + server.getAddress().getPort())
                    .build())
            .stores()
            .hadoopSettings();
    return new ClientCredsTokenProvider(
        hadoop.get("fs.azure.account.oauth2.client.endpoint." + HOST),
        hadoop.get("fs.azure.account.oauth2.client.id." + HOST),
        hadoop.get("fs.azure.account.oauth2.client.secret." + HOST));
  }

  @Test
  void aServicePrincipalGetsAStorageToken() throws IOException {
    AzureADToken token = provider("app-secret").getToken();

    assertThat(token.getAccessToken()).isEqualTo("storage-token");
    assertThat(requests).hasSize(1);
    assertThat(requests.get(0)).containsEntry("path", "/" + TENANT + "/oauth2/token");
  }

  @Test
  void aWorkloadIdentityExchangesItsFederatedToken() throws IOException {
    Path tokenFile = dir.resolve("azure-identity-token");
    Files.writeString(tokenFile, FEDERATED_TOKEN);
    Map<String, String> hadoop =
        new DeltaCdfSourceConfig(
                ConnectorConfig.forTables("abfss://ws@" + HOST + "/Shop.Lakehouse/Tables/orders")
                    .with("azure.auth.type", "workload-identity")
                    .with("azure.oauth.client.id", "app-id")
                    .with("azure.oauth.tenant.id", TENANT)
                    .with("azure.workload.identity.token.file", tokenFile.toString())
                    .with(
                        "azure.oauth.authority",
                        "http://127.0.0.1:" + server.getAddress().getPort())
                    .build())
            .stores()
            .hadoopSettings();

    AzureADToken token =
        new WorkloadIdentityTokenProvider(
                hadoop.get("fs.azure.account.oauth2.msi.authority." + HOST),
                hadoop.get("fs.azure.account.oauth2.msi.tenant." + HOST),
                hadoop.get("fs.azure.account.oauth2.client.id." + HOST),
                hadoop.get("fs.azure.account.oauth2.token.file." + HOST))
            .getToken();

    assertThat(token.getAccessToken()).isEqualTo("storage-token");
    assertThat(requests.get(0)).containsEntry("path", "/" + TENANT + "/oauth2/v2.0/token");
  }

  /**
   * A user-assigned managed identity, named by its client id. The metadata service's address is
   * fixed on Azure (169.254.169.254); here it is moved with ABFS's own setting, passed through as
   * hadoop.*.
   */
  private MsiTokenProvider managedIdentity(String clientId) {
    String host = HOST;
    Map<String, String> hadoop =
        new DeltaCdfSourceConfig(
                ConnectorConfig.forTables("abfss://ws@" + host + "/Shop.Lakehouse/Tables/orders")
                    .with("azure.auth.type", "managed-identity")
                    .with("azure.oauth.client.id", clientId)
                    .with(
                        "hadoop.fs.azure.account.oauth2.msi.endpoint." + host,
                        "http://127.0.0.1:" + server.getAddress().getPort() + MSI_PATH)
                    .build())
            .stores()
            .hadoopSettings();
    assertThat(hadoop)
        .containsEntry(
            "fs.azure.account.oauth.provider.type." + host,
            "org.apache.hadoop.fs.azurebfs.oauth2.MsiTokenProvider");
    return new MsiTokenProvider(
        hadoop.get("fs.azure.account.oauth2.msi.endpoint." + host),
        hadoop.get("fs.azure.account.oauth2.msi.tenant." + host),
        hadoop.get("fs.azure.account.oauth2.client.id." + host),
        hadoop.get("fs.azure.account.oauth2.msi.authority." + host));
  }

  @Test
  void aManagedIdentityGetsAStorageTokenFromTheMetadataService() throws IOException {
    AzureADToken token = managedIdentity("mi-client-id").getToken();

    assertThat(token.getAccessToken()).isEqualTo("storage-token");
    assertThat(requests.get(0))
        .containsEntry("path", MSI_PATH)
        .containsEntry("Metadata", "true")
        .containsEntry("client_id", "mi-client-id");
  }

  @Test
  void anUnknownManagedIdentityIsARefusedCredential() {
    assertThatThrownBy(() -> managedIdentity("not-assigned-to-this-vm").getToken())
        .isInstanceOf(IOException.class)
        .satisfies(
            e ->
                assertThat(KernelErrors.isAccessDenied(e))
                    .as("an identity the host does not have is refused, not an outage: %s", e)
                    .isTrue());
  }

  @Test
  void aWrongSecretIsRefusedByTheEndpoint() {
    assertThatThrownBy(() -> provider("wrong").getToken())
        .isInstanceOf(IOException.class)
        .satisfies(
            e ->
                assertThat(KernelErrors.isAccessDenied(e))
                    .as("a refused token is a refused credential, not an outage: %s", e)
                    .isTrue());
  }
}
