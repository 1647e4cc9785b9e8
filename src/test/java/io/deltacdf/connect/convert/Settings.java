package io.deltacdf.connect.convert;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import java.util.HashMap;
import java.util.Map;

/** Record settings as a connector configured with {@code keyValues} gets them. */
final class Settings {

  private Settings() {}

  static RecordSettings of(String... keyValues) {
    Map<String, String> settings = new HashMap<>();
    settings.put(DeltaCdfSourceConfig.TABLE_PATHS, "/lake/t");
    for (int i = 0; i < keyValues.length; i += 2) {
      settings.put(keyValues[i], keyValues[i + 1]);
    }
    return new DeltaCdfSourceConfig(settings).recordSettings("conn", "1.0");
  }
}
