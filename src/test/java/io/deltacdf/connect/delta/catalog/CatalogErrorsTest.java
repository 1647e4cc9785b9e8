package io.deltacdf.connect.delta.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.delta.DeltaFeedException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A renewal the catalog refused reaches the connector from inside the file system, often only as
 * text: it must still be told apart from a passing outage.
 */
class CatalogErrorsTest {

  private static final String TABLE = "abfs://c@a.dfs.core.windows.net/orders";

  /** ABFS's wrapping of the client library's exception, as it arrives. */
  private static IOException abfsFailure(int status, String body) {
    return new IOException(
        "Failed to acquire a SAS token for get-properties on /orders/part-0.parquet due to"
            + " java.lang.RuntimeException: io.unitycatalog.client.ApiException:"
            + " generateTemporaryTableCredentials call failed with: "
            + status
            + " - "
            + body);
  }

  @Test
  void anOverloadedCatalogIsRetriedAndARefusalIsNot() {
    DeltaFeedException unavailable =
        CatalogErrors.renewalFailure(
                TABLE,
                abfsFailure(
                    503, "{\"error_code\":\"TEMPORARILY_UNAVAILABLE\",\"message\":\"Try later.\"}"))
            .orElseThrow();
    assertThat(unavailable.kind()).isEqualTo(DeltaFeedException.Kind.TRANSIENT);
    assertThat(unavailable.getMessage())
        .contains(TABLE, "HTTP 503", "TEMPORARILY_UNAVAILABLE: Try later.", "retried");

    DeltaFeedException revoked =
        CatalogErrors.renewalFailure(
                TABLE,
                abfsFailure(403, "{\"error_code\":\"PERMISSION_DENIED\",\"message\":\"No.\"}"))
            .orElseThrow();
    assertThat(revoked.kind()).isEqualTo(DeltaFeedException.Kind.ACCESS_DENIED);

    DeltaFeedException oauth =
        CatalogErrors.renewalFailure(
                TABLE,
                new RuntimeException(
                    "Failed to renew OAuth token",
                    new IOException("Failed to fetch OAuth token. HTTP status: 401, Response: {}")))
            .orElseThrow();
    assertThat(oauth.kind()).isEqualTo(DeltaFeedException.Kind.ACCESS_DENIED);
  }

  @Test
  void otherStoreFailuresAreNotTheCatalogs() {
    assertThat(CatalogErrors.renewalFailure(TABLE, new IOException("Connection reset"))).isEmpty();
  }
}
