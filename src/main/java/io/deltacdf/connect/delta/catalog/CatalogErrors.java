package io.deltacdf.connect.delta.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.unitycatalog.client.ApiException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Unity Catalog's refusals as feed errors: what the catalog said, in its own words, and what to
 * grant or fix. A catalog that cannot be reached, is overloaded or fails (5xx) is a passing outage,
 * retried like a store's; a refusal (401, 403) or a missing table is not.
 */
public final class CatalogErrors {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * An {@link ApiException} that ABFS kept as text: "<call> call failed with: <status> - <body>".
   */
  private static final Pattern CALL_FAILED =
      Pattern.compile("\\w+ call failed with: (\\d{3}) - (\\{[^\\n]*\\})");

  private static final Pattern OAUTH_STATUS =
      Pattern.compile("Failed to fetch OAuth token\\. HTTP status: (\\d+)");

  private CatalogErrors() {}

  static DeltaFeedException lookupFailed(
      String uri, CatalogAuth auth, String fullName, Exception error) {
    return translate(uri, auth, fullName, error, Request.LOOKUP);
  }

  static DeltaFeedException vendingFailed(
      String uri, CatalogAuth auth, String fullName, Exception error) {
    return translate(uri, auth, fullName, error, Request.CREDENTIALS);
  }

  /**
   * The error of a read that failed because the catalog would not renew the table's credentials, if
   * that is why it failed: the client library throws from inside the file system.
   */
  public static Optional<DeltaFeedException> renewalFailure(String table, Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      String text = String.valueOf(t.getMessage());
      if (t instanceof ApiException
          || OAUTH_STATUS.matcher(text).find()
          || CALL_FAILED.matcher(text).find()) {
        Status status = status(t);
        String message =
            "Unity Catalog did not renew the read credentials of table "
                + table
                + " ("
                + status.describe()
                + ")";
        return Optional.of(
            status.refused()
                ? new DeltaFeedException(
                    DeltaFeedException.Kind.ACCESS_DENIED,
                    message + ". Check that the connector's principal may still read the table",
                    error)
                : new DeltaFeedException(
                    DeltaFeedException.Kind.TRANSIENT, message + "; reading is retried", error));
      }
    }
    return Optional.empty();
  }

  private enum Request {
    LOOKUP,
    CREDENTIALS
  }

  private static DeltaFeedException translate(
      String uri, CatalogAuth auth, String fullName, Exception error, Request request) {
    Status status = status(error);
    String said = "Unity Catalog at " + uri + " answered " + status.describe();
    if (status.code() == 401 || status.oauthRefused()) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.ACCESS_DENIED,
          said
              + " when asked for table "
              + fullName
              + ": it does not accept the connector's "
              + auth
              + ". Check "
              + (auth.usesToken()
                  ? "unity.catalog.token"
                  : "unity.catalog.oauth.client.id and unity.catalog.oauth.client.secret"),
          error);
    }
    if (status.code() == 403) {
      String grant =
          request == Request.LOOKUP
              ? "Grant the connector's principal USE CATALOG on "
                  + part(fullName, 0)
                  + ", USE SCHEMA on "
                  + schemaOf(fullName)
                  + " and SELECT on "
                  + fullName
              : "Grant the connector's principal EXTERNAL USE SCHEMA on "
                  + schemaOf(fullName)
                  + " (besides SELECT on the table), and enable external data access on the"
                  + " metastore";
      return new DeltaFeedException(
          DeltaFeedException.Kind.ACCESS_DENIED,
          said + " for table " + fullName + ". " + grant,
          error);
    }
    if (status.code() == 404) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.TABLE_NOT_FOUND,
          said
              + ": table "
              + fullName
              + " was not found. Check the name in unity.catalog.tables"
              + " (catalog.schema.table) and that the principal may see it",
          error);
    }
    if (status.code() == 400) {
      return new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          said + " for table " + fullName + ": the catalog rejected the request",
          error);
    }
    return new DeltaFeedException(
        DeltaFeedException.Kind.TRANSIENT,
        said
            + " for table "
            + fullName
            + ": the catalog is unreachable or failing; the request is retried",
        error);
  }

  private static String part(String fullName, int index) {
    String[] parts = fullName.split("\\.");
    return parts.length > index ? parts[index] : fullName;
  }

  private static String schemaOf(String fullName) {
    return part(fullName, 0) + "." + part(fullName, 1);
  }

  /**
   * What the catalog answered: the HTTP status (0 when no answer came) and its own message.
   *
   * @param oauthRefused whether the OAuth token endpoint refused the client id or secret
   */
  private record Status(int code, String message, boolean oauthRefused) {

    boolean refused() {
      return code == 401 || code == 403 || oauthRefused;
    }

    String describe() {
      return code == 0 ? "nothing: " + message : "HTTP " + code + ": " + message;
    }
  }

  private static Status status(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof ApiException api) {
        return new Status(api.getCode(), catalogMessage(api), false);
      }
      Matcher called = CALL_FAILED.matcher(String.valueOf(t.getMessage()));
      if (called.find()) {
        return new Status(Integer.parseInt(called.group(1)), bodyMessage(called.group(2)), false);
      }
      Matcher oauth = OAUTH_STATUS.matcher(String.valueOf(t.getMessage()));
      if (oauth.find()) {
        int code = Integer.parseInt(oauth.group(1));
        return new Status(
            code,
            "the OAuth token endpoint refused the token request",
            code >= 400 && code < 500 && code != 429);
      }
    }
    return new Status(0, String.valueOf(error.getMessage()), false);
  }

  /**
   * The catalog's {@code message} (and {@code error_code}) from the error body, else the status.
   */
  private static String catalogMessage(ApiException error) {
    String body = error.getResponseBody();
    if (body != null && !body.isBlank()) {
      return bodyMessage(body);
    }
    return error.getCode() == 0 ? String.valueOf(error.getMessage()) : "no message";
  }

  private static String bodyMessage(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      String code = node.path("error_code").asText("");
      String message = node.path("message").asText("");
      if (!message.isEmpty()) {
        return code.isEmpty() ? message : code + ": " + message;
      }
    } catch (java.io.IOException e) {
      // Not JSON (a proxy's page): the first line of it says enough.
    }
    return body.lines().findFirst().orElse(body);
  }
}
