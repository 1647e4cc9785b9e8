package io.deltacdf.connect.delta.catalog;

import io.unitycatalog.client.auth.TokenProvider;
import java.util.Map;

/**
 * How the connector signs in to Unity Catalog: a personal access token, or a service principal's
 * OAuth client credentials (machine to machine), exchanged at {@code oauthTokenUri} for tokens the
 * client library renews before they expire.
 */
public record CatalogAuth(
    String token, String clientId, String clientSecret, String oauthTokenUri, String oauthScope) {

  public static CatalogAuth personalAccessToken(String token) {
    return new CatalogAuth(token, null, null, null, null);
  }

  public static CatalogAuth servicePrincipal(
      String clientId, String clientSecret, String oauthTokenUri, String oauthScope) {
    return new CatalogAuth(null, clientId, clientSecret, oauthTokenUri, oauthScope);
  }

  boolean usesToken() {
    return token != null;
  }

  /** The client library's provider; it sends the token only to the catalog and its token URI. */
  TokenProvider tokenProvider() {
    if (usesToken()) {
      return TokenProvider.create(Map.of("type", "static", "token", token));
    }
    return TokenProvider.create(
        Map.of(
            "type", "oauth",
            "oauth.uri", oauthTokenUri,
            "oauth.clientId", clientId,
            "oauth.clientSecret", clientSecret,
            "oauth.scope", oauthScope));
  }

  /** Secrets stay out of logs and exception messages. */
  @Override
  public String toString() {
    return usesToken()
        ? "personal access token"
        : "service principal " + clientId + " (token URI " + oauthTokenUri + ")";
  }
}
