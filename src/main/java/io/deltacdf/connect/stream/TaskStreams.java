package io.deltacdf.connect.stream;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/** The streams of the units a task's settings hand it, each from the position stored for it. */
final class TaskStreams {

  private TaskStreams() {}

  /** The streams of the task; their tables are opened by their first read. */
  static List<TableStream> of(
      DeltaCdfSourceConfig config,
      String connectorName,
      String connectorVersion,
      Redaction redaction,
      OffsetStorageReader offsets) {
    List<TaskUnit> units = new ArrayList<>(TaskConfigs.units(config));
    // Every stored offset is read before any table registers its metrics: a malformed one fails
    // the task with nothing to clean up.
    Map<TablePartition, StoredOffset> stored =
        StoredPositions.read(offsets, units.stream().map(TaskUnit::partition).toList());
    units.replaceAll(
        u -> stored.get(u.partition()) == null ? SnapshotSlices.pinnedSlice(u, offsets) : u);
    Resnapshots resnapshots = new Resnapshots(config, redaction);
    TableOpener opener =
        new TableOpener(
            config,
            new ConfiguredTables(config, redaction),
            new TableConverters(config, connectorName, connectorVersion),
            resnapshots,
            redaction);
    return units.stream()
        .map(
            unit ->
                new TableStream(
                    unit,
                    stored.get(unit.partition()),
                    opener,
                    resnapshots,
                    redaction,
                    new TableMetrics(connectorName, unit.partition().describe())))
        .toList();
  }
}
