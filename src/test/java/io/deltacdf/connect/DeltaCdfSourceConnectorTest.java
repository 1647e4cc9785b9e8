package io.deltacdf.connect;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.testing.ConnectorConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/** What the Connect offsets API accepts for this connector's tables. */
class DeltaCdfSourceConnectorTest {

  private static final String CONFIGURED = "/lake/orders";
  private final DeltaCdfSourceConnector connector = new DeltaCdfSourceConnector();
  private final Map<String, String> config = ConnectorConfig.forTables(CONFIGURED).build();

  @Test
  void offsetsOfATableNoLongerConfiguredCanBeReset() {
    Map<Map<String, ?>, Map<String, ?>> reset = new HashMap<>();
    reset.put(Map.of("table", CONFIGURED), null);
    reset.put(Map.of("table", "/lake/removed"), null);
    reset.put(Map.of("table", "/lake/orders/"), null);

    assertThatCode(() -> connector.alterOffsets(config, reset)).doesNotThrowAnyException();
  }

  @Test
  void movingATableThatIsNotConfiguredIsRejectedNamingIt() {
    Map<Map<String, ?>, Map<String, ?>> moved =
        Map.of(Map.of("table", "/lake/removed"), Map.of("version", 3));

    assertThatThrownBy(() -> connector.alterOffsets(config, moved))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("/lake/removed")
        .hasMessageContaining("not one of this connector's tables");
  }

  @Test
  void aConfiguredTableCanBeMovedToAVersion() {
    Map<Map<String, ?>, Map<String, ?>> moved =
        Map.of(Map.of("table", CONFIGURED), Map.of("version", 3));

    assertThatCode(() -> connector.alterOffsets(config, moved)).doesNotThrowAnyException();
  }

  @Test
  void anOffsetNamingItsTableIsCheckedToo() {
    Map<Map<String, ?>, Map<String, ?>> named =
        Map.of(Map.of("table", CONFIGURED), Map.of("version", 3, "table_id", "6f1c"));
    Map<Map<String, ?>, Map<String, ?>> malformed =
        Map.of(Map.of("table", CONFIGURED), Map.of("version", 3, "table_id", 7));

    assertThatCode(() -> connector.alterOffsets(config, named)).doesNotThrowAnyException();
    assertThatThrownBy(() -> connector.alterOffsets(config, malformed))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("'table_id' and 'catalog_table_id' must be strings");
  }

  @Test
  void shardPartitionsAndTheirHandOversAreAcceptedAndChecked() {
    Map<Map<String, ?>, Map<String, ?>> shards = new HashMap<>();
    shards.put(Map.of("table", CONFIGURED, "shard", "0/2"), Map.of("version", 3));
    shards.put(
        Map.of("table", CONFIGURED, "shard", "1/2"),
        Map.of("version", 3, "table_id", "6f1c", "handover", "1:4.0.7"));
    shards.put(Map.of("table", CONFIGURED, "shard", "2/3"), null);
    Map<Map<String, ?>, Map<String, ?>> malformed =
        Map.of(
            Map.of("table", CONFIGURED, "shard", "1/2"), Map.of("version", 3, "handover", "2:4"));
    Map<Map<String, ?>, Map<String, ?>> badShard =
        Map.of(Map.of("table", CONFIGURED, "shard", "2/2"), Map.of("version", 3));

    assertThatCode(() -> connector.alterOffsets(config, shards)).doesNotThrowAnyException();
    assertThatThrownBy(() -> connector.alterOffsets(config, malformed))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("'handover' is <count>:<position>");
    assertThatThrownBy(() -> connector.alterOffsets(config, badShard))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("0 <= index < count");
  }
}
