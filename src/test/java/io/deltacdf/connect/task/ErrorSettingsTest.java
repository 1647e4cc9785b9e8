package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaFeedException.Kind;
import io.deltacdf.connect.testing.ConnectorConfig;
import org.junit.jupiter.api.Test;

/** The setting each error reading a table is reported on, in validation and in task failures. */
class ErrorSettingsTest {

  private static final String S3_TABLE = "s3a://lake/orders";
  private static final String LOCAL_TABLE = "/lake/orders";

  private static ErrorSettings settings(String... pairs) {
    return new ErrorSettings(
        new DeltaCdfSourceConfig(
            ConnectorConfig.forTables(S3_TABLE + "," + LOCAL_TABLE).with(pairs).build()));
  }

  private static DeltaFeedException error(Kind kind) {
    return new DeltaFeedException(kind, kind + " happened");
  }

  @Test
  void aStoreErrorIsOnTheCredentialTheStoreRefusedOrTheEndpointItCannotReach() {
    ErrorSettings s3 =
        settings(
            "s3.credentials", "static",
            "s3.access.key.id", "AKIAEXAMPLEKEYID",
            "s3.secret.access.key", "secret-value",
            "s3.endpoint", "https://store.internal:9000");

    assertThat(s3.storeSetting(error(Kind.ACCESS_DENIED), S3_TABLE))
        .isEqualTo("s3.secret.access.key");
    assertThat(s3.settingFor(error(Kind.ACCESS_DENIED), S3_TABLE))
        .isEqualTo("s3.secret.access.key");
    assertThat(s3.settingFor(error(Kind.TRANSIENT), S3_TABLE)).isEqualTo("s3.endpoint");
    assertThat(s3.storeSetting(error(Kind.HISTORY_MISSING), S3_TABLE)).isNull();
  }

  @Test
  void aStoreWithoutSuchASettingLeavesTheErrorOnThePath() {
    ErrorSettings local = settings();

    assertThat(local.storeSetting(error(Kind.ACCESS_DENIED), LOCAL_TABLE)).isNull();
    assertThat(local.settingFor(error(Kind.ACCESS_DENIED), LOCAL_TABLE))
        .isEqualTo("delta.table.paths");
    assertThat(local.settingFor(error(Kind.TRANSIENT), S3_TABLE)).isEqualTo("delta.table.paths");
  }

  @Test
  void anErrorAboutTheStartIsOnTheStartOptionThatPlacedIt() {
    ErrorSettings version = settings("start.mode", "version", "start.version", "3");
    ErrorSettings timestamp = settings("start.mode", "timestamp", "start.timestamp", "2024-05-01");
    ErrorSettings snapshot = settings();

    assertThat(version.settingFor(error(Kind.HISTORY_MISSING), LOCAL_TABLE))
        .isEqualTo("start.version");
    assertThat(version.settingFor(error(Kind.CDF_DISABLED), LOCAL_TABLE))
        .isEqualTo("start.version");
    assertThat(timestamp.settingFor(error(Kind.INVALID_START), LOCAL_TABLE))
        .isEqualTo("start.timestamp");
    assertThat(snapshot.settingFor(error(Kind.HISTORY_MISSING), LOCAL_TABLE))
        .isEqualTo("start.mode");
    assertThat(snapshot.settingFor(error(Kind.CDF_DISABLED), LOCAL_TABLE))
        .isEqualTo("delta.table.paths");
    assertThat(version.settingFor(error(Kind.TABLE_NOT_FOUND), LOCAL_TABLE))
        .isEqualTo("delta.table.paths");
  }
}
