package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaFeedException.Kind;
import io.deltacdf.connect.testing.ConnectorConfig;
import org.junit.jupiter.api.Test;

/** Which errors on.history.missing=resnapshot answers with a new snapshot. */
class ResnapshotsTest {

  private static Resnapshots resnapshots(String onHistoryMissing) {
    DeltaCdfSourceConfig config =
        new DeltaCdfSourceConfig(
            ConnectorConfig.forTables("/lake/orders")
                .with("on.history.missing", onHistoryMissing)
                .build());
    return new Resnapshots(config, new Redaction(config));
  }

  private static DeltaFeedException error(Kind kind) {
    return new DeltaFeedException(kind, kind.name());
  }

  @Test
  void missingHistoryAndAReplacedTableStartOverWhenTheSettingSaysSo() {
    Resnapshots resnapshot = resnapshots("resnapshot");

    assertThat(resnapshot.apply(error(Kind.HISTORY_MISSING))).isTrue();
    assertThat(resnapshot.apply(error(Kind.TABLE_REPLACED))).isTrue();
    assertThat(resnapshot.apply(error(Kind.INVALID_START))).isFalse();
    assertThat(resnapshot.apply(error(Kind.CORRUPT_FILE))).isFalse();
    assertThat(resnapshots("fail").apply(error(Kind.HISTORY_MISSING))).isFalse();
  }
}
