package io.deltacdf.connect.task;

import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaFeedException;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The setting an error reading a table is about: the one a user changes to fix it. Validation
 * reports the error on it; a task that fails names the store setting in its message.
 */
public final class ErrorSettings {

  private final DeltaCdfSourceConfig config;

  public ErrorSettings(DeltaCdfSourceConfig config) {
    this.config = config;
  }

  /** The exception a task fails with: secrets removed, the store setting at fault named. */
  ConnectException taskFailure(String table, DeltaFeedException error, Redaction redaction) {
    String setting = storeSetting(error, table);
    if (setting != null) {
      error =
          new DeltaFeedException(
              error.kind(), error.getMessage() + " (setting: " + setting + ")", error.getCause());
    }
    return redaction.toConnectException(error);
  }

  /**
   * The setting of the table's store that {@code error} is about: the credential the store refused,
   * or the endpoint it cannot reach; null for other errors, and for stores (local files) without
   * such a setting.
   */
  String storeSetting(DeltaFeedException error, String table) {
    return switch (error.kind()) {
      case ACCESS_DENIED -> config.stores().credentialSettingFor(table);
      case TRANSIENT -> config.stores().endpointSettingFor(table);
      default -> null;
    };
  }

  /**
   * The setting validation reports {@code error} on: the store setting, the row filter for a filter
   * that does not fit the table, else the start option for an error about where the feed starts,
   * else the setting that names the table.
   */
  public String settingFor(DeltaFeedException error, String table) {
    String storeSetting = storeSetting(error, table);
    if (storeSetting != null) {
      return storeSetting;
    }
    if (error.kind() == DeltaFeedException.Kind.ROW_FILTER_MISFIT) {
      return DeltaCdfSourceConfig.ROW_FILTER;
    }
    boolean aboutStart =
        error.kind() == DeltaFeedException.Kind.INVALID_START
            || error.kind() == DeltaFeedException.Kind.HISTORY_MISSING
            || error.kind() == DeltaFeedException.Kind.CDF_DISABLED;
    if (!aboutStart) {
      return config.tableSettingFor(table);
    }
    StartSpec start = config.start();
    if (start instanceof StartSpec.AtVersion) {
      return DeltaCdfSourceConfig.START_VERSION;
    }
    if (start instanceof StartSpec.AtTimestamp) {
      return DeltaCdfSourceConfig.START_TIMESTAMP;
    }
    // Without a start version or timestamp, a table without change data feed is the path's fault.
    return error.kind() == DeltaFeedException.Kind.CDF_DISABLED
        ? config.tableSettingFor(table)
        : DeltaCdfSourceConfig.START_MODE;
  }
}
