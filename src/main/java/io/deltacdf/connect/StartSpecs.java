package io.deltacdf.connect;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.StartSpec;

/** Translates the start settings into the reader's start specification. */
final class StartSpecs {

  private StartSpecs() {}

  static StartSpec of(DeltaCdfSourceConfig config) {
    switch (config.startMode()) {
      case SNAPSHOT:
        return new StartSpec.Snapshot();
      case EARLIEST:
        return new StartSpec.Earliest();
      case LATEST:
        return new StartSpec.Latest();
      case VERSION:
        return new StartSpec.AtVersion(config.startVersion().orElseThrow());
      case TIMESTAMP:
        return new StartSpec.AtTimestamp(config.startTimestamp().orElseThrow().toEpochMilli());
      default:
        throw new IllegalArgumentException("Unknown start mode " + config.startMode());
    }
  }
}
