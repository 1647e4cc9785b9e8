package io.deltacdf.connect.task;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.convert.RecordSettings;
import io.deltacdf.connect.convert.TransactionRecords;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/** The streams of the units a task's settings hand it, each from the position stored for it. */
final class TaskStreams {

  private TaskStreams() {}

  /**
   * The streams of the task; their tables are opened by their first read. A snapshot slice of
   * another cut than the stored slice offsets fix starts in that cut, or is not read at all (see
   * {@link SnapshotSlices#sliceStart}); a table or shard takes over from the offsets of another
   * shard count (see {@link ShardHandOvers}).
   */
  static List<TableStream> of(
      DeltaCdfSourceConfig config,
      String connectorName,
      String connectorVersion,
      Redaction redaction,
      OffsetStorageReader offsets,
      Notifier notifier) {
    List<TaskUnit> units = TaskSettings.units(config.originals());
    // Every stored offset is read and decoded here, once, before any table registers its
    // metrics: a malformed one fails the task with nothing to clean up. A slice also needs its
    // sibling slices' offsets, of any slice count; a table or shard the offsets of the table's
    // changes under any shard count.
    Set<TablePartition> partitions = new LinkedHashSet<>();
    for (TaskUnit unit : units) {
      partitions.add(unit.partition());
      if (unit.partition().slice() != null) {
        partitions.addAll(SnapshotSlices.slicePartitions(unit.table()));
      } else {
        partitions.addAll(TableShards.partitions(unit.table()));
        partitions.addAll(SnapshotSlices.slicePartitions(unit.table()));
      }
    }
    Map<TablePartition, StoredOffset> stored = StoredPositions.read(offsets, partitions);
    // Where each unit starts is decided before any stream registers its metrics, too.
    Map<TaskUnit, TablePosition> starts = new LinkedHashMap<>();
    for (TaskUnit planned : units) {
      if (planned.partition().slice() == null) {
        ShardHandOvers.Start start = ShardHandOvers.of(planned, stored);
        starts.put(planned, new TablePosition(start.stored(), start.planned(), start.handOver()));
      } else {
        SnapshotSlices.SliceStart start = SnapshotSlices.sliceStart(planned, stored);
        if (start != null) {
          starts.put(start.unit(), new TablePosition(start.stored(), start.unit().start()));
        }
      }
    }
    Resnapshots resnapshots = new Resnapshots(config, redaction);
    TableOpener opener =
        new TableOpener(
            config,
            new ConfiguredTables(config, redaction),
            new TableConverters(config, connectorName, connectorVersion),
            resnapshots,
            redaction);
    List<TableStream> streams = new ArrayList<>();
    starts.forEach(
        (unit, position) ->
            streams.add(
                new TableStream(
                    unit.partition(),
                    position,
                    opener,
                    resnapshots,
                    redaction,
                    new TableMetrics(connectorName, unit.partition().describe(), position),
                    versionTransactions(config, connectorName, connectorVersion, unit.partition()),
                    new TableNotices(notifier, unit.partition()))));
    return List.copyOf(streams);
  }

  /** The transaction metadata of {@code partition}'s versions, as provide.transaction.metadata. */
  private static VersionTransactions versionTransactions(
      DeltaCdfSourceConfig config,
      String connectorName,
      String connectorVersion,
      TablePartition partition) {
    if (!config.provideTransactionMetadata()) {
      return VersionTransactions.NONE;
    }
    RecordSettings settings = config.recordSettings(connectorName, connectorVersion);
    return new VersionTransactions(
        new TransactionRecords(config.transactionTopic(connectorName), settings),
        config.topicFor(partition.table()),
        settings.changeTypes(),
        partition.toMap());
  }
}
