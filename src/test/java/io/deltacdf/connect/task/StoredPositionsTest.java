package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.offset.SignalState;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.testing.StoredOffsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/** Stored offsets as the task and the connector read them: decoded, or failing by table. */
class StoredPositionsTest {

  private static final TablePartition TABLE = new TablePartition("s3a://bucket/orders");
  private static final TablePartition SLICE =
      new TablePartition("s3a://bucket/orders", new SnapshotSlice(1, 2));

  @Test
  void onlyPartitionsWithAStoredOffsetHaveAPosition() {
    StoredOffsets offsets = new StoredOffsets().put(SLICE.toMap(), Map.of("version", 4L));

    assertThat(StoredPositions.read(offsets, List.of(TABLE, SLICE)))
        .containsExactly(
            Map.entry(
                SLICE,
                new StoredOffset(
                    ChangePosition.InVersion.start(4),
                    null,
                    HiddenColumns.NONE,
                    SignalState.NONE)));
    assertThat(StoredPositions.decode(TABLE, null)).isNull();
  }

  @Test
  void aMalformedOffsetFailsNamingTheSliceItWasStoredFor() {
    StoredOffsets offsets = new StoredOffsets().put(SLICE.toMap(), Map.of("version", "four"));

    assertThatThrownBy(() -> StoredPositions.read(offsets, List.of(TABLE, SLICE)))
        .isInstanceOf(ConnectException.class)
        .hasMessageStartingWith("Table s3a://bucket/orders (snapshot slice 1/2): Invalid offset")
        .hasMessageContaining("'version' must be a whole number");
  }
}
