package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.SignalState;
import io.deltacdf.connect.offset.StoredOffset;
import io.deltacdf.connect.offset.TablePartition;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.StoredOffsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * A table or shard without an offset of its own, of a table whose changes stored offsets under
 * another shard count (table.shards was changed), fails its task saying what was found and what to
 * do, instead of starting by start.mode.
 */
class OtherShardCountsTest {

  private static final String TABLE = "s3a://bucket/orders";

  private static StoredOffset at(long version) {
    return new StoredOffset(
        ChangePosition.InVersion.start(version), null, HiddenColumns.NONE, SignalState.NONE);
  }

  @Test
  void aNewShardOfATableStoredWholeFails() {
    Map<TablePartition, StoredOffset> stored = Map.of(new TablePartition(TABLE), at(7));

    assertThatThrownBy(
            () -> OtherShardCounts.requireNone(TaskUnit.shard(TABLE, new TableShard(1, 3)), stored))
        .isInstanceOf(ConnectException.class)
        .hasMessageStartingWith("Table s3a://bucket/orders (shard 1/3) has no stored offset")
        .hasMessageContaining("the whole table's (table.shards=1)")
        .hasMessageContaining("table.shards was changed to 3")
        .hasMessageContaining("Set table.shards back to 1 ")
        .hasMessageContaining("DELETE /connectors/<name>/offsets");
  }

  @Test
  void theWholeTableAfterShardsFailsNamingEveryCountFound() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE, new TableShard(0, 3)), at(7));
    stored.put(new TablePartition(TABLE, new TableShard(2, 3)), at(8));
    stored.put(new TablePartition(TABLE, new TableShard(1, 2)), at(9));

    assertThatThrownBy(() -> OtherShardCounts.requireNone(TaskUnit.table(TABLE), stored))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("1 of 2 shards (table.shards=2), and 2 of 3 shards (table.shards=3)")
        .hasMessageContaining("table.shards was changed to 1")
        .hasMessageContaining("one of [2, 3]");
  }

  @Test
  void siblingShardsSlicesAndOtherTablesAreNoOtherCount() {
    Map<TablePartition, StoredOffset> stored = new HashMap<>();
    stored.put(new TablePartition(TABLE, new TableShard(0, 3)), at(7));
    stored.put(new TablePartition(TABLE, new SnapshotSlice(0, 2)), at(5));
    stored.put(new TablePartition("s3a://bucket/items"), at(9));

    assertThatCode(
            () -> OtherShardCounts.requireNone(TaskUnit.shard(TABLE, new TableShard(1, 3)), stored))
        .doesNotThrowAnyException();
  }

  @Test
  void theTaskReadsEveryShardCountsOffsetsAndFailsAtStart() {
    StoredOffsets offsets =
        new StoredOffsets()
            .put(new TablePartition(TABLE, new TableShard(5, 64)).toMap(), Map.of("version", 3L));
    Map<String, String> connector =
        ConnectorConfig.forTables(TABLE).keyColumns("id").with("table.shards", "2").build();
    Map<String, String> task =
        TaskSettings.forUnits(connector, TableShards.units(TABLE, 2, null).subList(0, 1));
    DeltaCdfSourceConfig config = new DeltaCdfSourceConfig(task);

    assertThatThrownBy(
            () -> TaskStreams.of(config, "c", "1", new Redaction(config), offsets, Notifier.NONE))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("shard 0/2")
        .hasMessageContaining("1 of 64 shards (table.shards=64)");
  }
}
