package io.deltacdf.connect.offset;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.TableShard;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * Connect looks a stored offset up by the JSON bytes of its partition, written in one JVM (a task's
 * worker) and looked up in others (the worker a killed task moves to, the connector's worker
 * following the slices, the REST offsets API). A slice partition must therefore serialise the same
 * everywhere and as Connect re-serialises what it decoded from the offsets topic.
 */
class TablePartitionTest {

  private static final String TABLE = "s3a://bucket/tables/orders";

  @Test
  void aSlicePartitionSerialisesLikeConnectsOwnDecodingOfIt() {
    Map<String, String> partition = new TablePartition(TABLE, SnapshotSlice.parse("2/4")).toMap();
    byte[] written = key(partition);

    Object decoded = converter().toConnectData("offsets", written).value();
    Map<?, ?> decodedPartition = (Map<?, ?>) ((List<?>) decoded).get(1);

    assertThat(decodedPartition).isEqualTo(partition);
    assertThat(new String(key(decodedPartition), StandardCharsets.UTF_8))
        .isEqualTo(new String(written, StandardCharsets.UTF_8));
  }

  @Test
  void everyJvmWritesTheSameKey() {
    // Map.of's iteration order is salted per JVM: the same bytes in every JVM need a fixed order.
    Map<String, String> sliceFirst = new LinkedHashMap<>();
    sliceFirst.put("slice", "0/3");
    sliceFirst.put("table", TABLE);
    Map<String, String> tableFirst = new LinkedHashMap<>();
    tableFirst.put("table", TABLE);
    tableFirst.put("slice", "0/3");

    for (Map<String, String> built : List.of(sliceFirst, tableFirst)) {
      TablePartition partition = TablePartition.fromMap(built);
      assertThat(partition).isEqualTo(new TablePartition(TABLE, SnapshotSlice.parse("0/3")));
      assertThat(new String(key(partition.toMap()), StandardCharsets.UTF_8))
          .isEqualTo("[\"connector\",{\"slice\":\"0/3\",\"table\":\"" + TABLE + "\"}]");
    }
  }

  /**
   * A shard partition names its shard; one shard is the whole table, whose partition stays
   * {"table": uri}, so the offsets stored before sharding stay valid.
   */
  @Test
  void aShardPartitionNamesItsShardAndOneShardIsTheTable() {
    TablePartition shard = new TablePartition(TABLE, TableShard.parse("1/3"));
    assertThat(new String(key(shard.toMap()), StandardCharsets.UTF_8))
        .isEqualTo("[\"connector\",{\"shard\":\"1/3\",\"table\":\"" + TABLE + "\"}]");
    assertThat(TablePartition.fromMap(shard.toMap())).isEqualTo(shard);
    assertThat(shard.describe()).isEqualTo(TABLE + " (shard 1/3)");
    assertThat(new TablePartition(TABLE, TableShard.WHOLE).toMap())
        .isEqualTo(Map.of("table", TABLE));
  }

  /**
   * The offsets topic's key for {@code partition}, as Connect's offset writer and reader build it.
   */
  private static byte[] key(Map<?, ?> partition) {
    return converter().fromConnectData("offsets", null, Arrays.asList("connector", partition));
  }

  private static JsonConverter converter() {
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "false"), true);
    return converter;
  }
}
