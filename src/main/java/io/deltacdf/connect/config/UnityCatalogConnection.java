package io.deltacdf.connect.config;

/**
 * How to reach Unity Catalog: its URL and a personal access token, or a service principal's OAuth
 * client credentials (token null). The secrets never show in {@link #toString()}.
 */
public record UnityCatalogConnection(
    String uri,
    String token,
    String clientId,
    String clientSecret,
    String oauthTokenUri,
    String oauthScope) {

  public boolean usesToken() {
    return token != null;
  }

  @Override
  public String toString() {
    return uri
        + (usesToken() ? " (personal access token)" : " (service principal " + clientId + ")");
  }
}
