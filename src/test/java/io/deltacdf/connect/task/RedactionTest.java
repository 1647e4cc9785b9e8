package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.io.IOException;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/** Configured secrets never leave in a message, a log line or a failure's stack trace. */
class RedactionTest {

  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG";

  private final Redaction redaction =
      new Redaction(
          new DeltaCdfSourceConfig(
              ConnectorConfig.forTables("s3a://lake/orders")
                  .with("s3.credentials", "static")
                  .with("s3.access.key.id", "AKIAEXAMPLEKEYID")
                  .with("s3.secret.access.key", SECRET)
                  .with("hadoop.fs.s3a.session.token", "abc")
                  .build()));

  @Test
  void secretsAreHiddenButValuesTooShortToBeSecretsAreLeft() {
    assertThat(redaction.redact("signed with " + SECRET + " and abc"))
        .isEqualTo("signed with " + Redaction.HIDDEN + " and abc");
    assertThat(redaction.redact(null)).isNull();
  }

  @Test
  void aFailureKeepsItsCauseOnlyWhenNoSecretIsInItsTrace() {
    DeltaFeedException clean =
        new DeltaFeedException(DeltaFeedException.Kind.ACCESS_DENIED, "403", new IOException("no"));
    DeltaFeedException leaky =
        new DeltaFeedException(
            DeltaFeedException.Kind.ACCESS_DENIED, "403", new IOException("key " + SECRET));

    ConnectException kept = redaction.toConnectException(clean);
    ConnectException dropped = redaction.toConnectException(leaky);

    assertThat(kept).hasMessage("403").hasCause(clean);
    assertThat(dropped).hasMessage("403").hasNoCause();
  }

  /**
   * Unity Catalog vends and renews credentials the configuration never holds, and OAuth access
   * tokens are issued at run time: hidden by their shape wherever a store's error echoes them.
   */
  @Test
  void vendedAndIssuedTokensAreHiddenByTheirShape() {
    String sas = "sv=2023-11-03&sr=c&sig=Xy9%2Bq0ZkLmNoPqRsTuVwXyZ%3D&se=2026-12-06T05";
    String session = "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+abc==";
    String jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzcC0xIn0.c2lnbmF0dXJlLWJ5dGVz";
    DeltaFeedException error =
        new DeltaFeedException(
            DeltaFeedException.Kind.ACCESS_DENIED,
            "GET https://acct.dfs.core.windows.net/lake?" + sas + " failed: 403",
            new IOException(
                "x-amz-security-token: "
                    + session
                    + "; Authorization: Bearer "
                    + jwt
                    + "; {\"access_token\": \"dapi0123456789abcdef\"}"));

    ConnectException failure = redaction.toConnectException(error);

    assertThat(failure.getMessage())
        .doesNotContain("Xy9%2Bq0ZkLmNoPqRsTuVwXyZ")
        .contains("sig=" + Redaction.HIDDEN, "sv=2023-11-03", "&se=2026-12-06T05", "403");
    assertThat(failure).hasNoCause();
    String trace = redaction.redact(error.getCause().getMessage());
    assertThat(trace)
        .doesNotContain(session, jwt, "dapi0123456789abcdef")
        .contains("Bearer " + Redaction.HIDDEN);
    assertThat(redaction.redact("Table main.sales.orders version 3: file part-0001.parquet"))
        .isEqualTo("Table main.sales.orders version 3: file part-0001.parquet");
  }
}
