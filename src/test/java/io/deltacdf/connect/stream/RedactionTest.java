package io.deltacdf.connect.stream;

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
}
