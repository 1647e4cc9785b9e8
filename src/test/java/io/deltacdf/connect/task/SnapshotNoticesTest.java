package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.FeedProgress;
import io.deltacdf.connect.change.VersionSourceCounts;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.convert.Notification;
import io.deltacdf.connect.convert.OutputFormat;
import io.deltacdf.connect.offset.SignalState;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The notifications a stream makes about its table and its snapshots, in the order it makes them.
 */
class SnapshotNoticesTest {

  private static final String TABLE = "/lake/orders";

  private final Notifier notifier =
      Notifier.of(
          new DeltaCdfSourceConfig(
              ConnectorConfig.forTables(TABLE)
                  .with("notification.enabled.channels", "sink")
                  .with("notification.sink.topic.name", "notices")
                  .build()),
          "c",
          OutputFormat.STRUCT,
          0);
  private final TableNotices notices = new TableNotices(notifier, new TablePartition(TABLE));

  @Test
  void aNewTableStartsItsSnapshotReportsProgressAtMostEveryTenSecondsAndCompletes() {
    TablePosition position = new TablePosition(null, null);
    SnapshotNotices snapshots = new SnapshotNotices(notices, position);
    ChangePosition start = ChangePosition.InSnapshot.start(3);
    position.readTo(start);

    snapshots.opened(TableOpener.StartKind.CONFIGURED, start, 0);
    position.readTo(new ChangePosition.InSnapshot(3, "b.parquet", 0));
    snapshots.read(emptyBatch(), new FeedProgress(3, 1, 4, 0, VersionSourceCounts.NONE), 20_000);
    snapshots.read(
        emptyBatch(),
        new FeedProgress(3, 2, 4, 0, VersionSourceCounts.NONE),
        25_000); // within ten seconds
    position.readTo(ChangePosition.InVersion.start(4));
    snapshots.read(emptyBatch(), new FeedProgress(3, 4, 4, 0, VersionSourceCounts.NONE), 26_000);

    List<Notification> made = notices.take();
    assertThat(made)
        .extracting(n -> n.aggregateType() + "/" + n.type())
        .containsExactly(
            "Table/FOUND",
            "Initial Snapshot/STARTED",
            "Initial Snapshot/IN_PROGRESS",
            "Initial Snapshot/COMPLETED");
    assertThat(made.get(2).additionalData())
        .containsEntry("percent", "25")
        .containsEntry("files_done", "1")
        .containsEntry("data_collection", TABLE)
        .containsEntry("connector_name", "c");
    assertThat(made.get(3).additionalData()).containsEntry("version", "3");
    assertThat(notices.waiting()).isFalse();
  }

  @Test
  void aSignalledSnapshotIsNamedSoUntilItCompletesAndThenLeavesTheOffsets() {
    TablePosition position = new TablePosition(null, null);
    SnapshotNotices snapshots = new SnapshotNotices(notices, position);
    ChangePosition start = ChangePosition.InSnapshot.start(7);
    position.readTo(start);
    position.signalled(new SignalState(5, false, "region = 'eu'"));

    snapshots.signalled(start, "s1", "region = 'eu'", 0);
    position.readTo(ChangePosition.InVersion.start(8));
    snapshots.read(emptyBatch(), new FeedProgress(7, 2, 2, 0, VersionSourceCounts.NONE), 1_000);

    assertThat(notices.take())
        .extracting(
            n -> n.aggregateType() + "/" + n.type() + " " + n.additionalData().get("condition"))
        .containsExactly(
            "Blocking Snapshot/STARTED region = 'eu'", "Blocking Snapshot/COMPLETED null");
    assertThat(position.signals().snapshotFilter()).isNull();
    assertThat(position.signals().nextSignal()).isEqualTo(5);
  }

  private static ChangeBatch emptyBatch() {
    return new ChangeBatch(null, List.of(), ChangePosition.InVersion.start(0), false);
  }
}
