package io.deltacdf.connect.offset;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.TableIdentity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * Offsets store as the bytes they stored as when they were {@code LinkedHashMap}s (Connect's offset
 * store writes them with a schemaless JsonConverter), and behave as maps.
 */
class OffsetMapTest {

  @Test
  void everyShapeStoresAsTheBytesItStoredAsInALinkedHashMap() {
    TableIdentity table = new TableIdentity("t-1", "c-1");
    Map<Map<String, Object>, String> stored = new LinkedHashMap<>();
    stored.put(OffsetCodec.toMap(ChangePosition.InVersion.start(12)), "{\"version\":12}");
    stored.put(
        OffsetCodec.toMap(new ChangePosition.InVersion(12, 3, 100), table, "", SignalState.NONE),
        "{\"version\":12,\"file\":3,\"row\":100,\"table_id\":\"t-1\",\"catalog_table_id\":\"c-1\"}");
    stored.put(
        OffsetCodec.toMap(
            new ChangePosition.InSnapshot(7, "a \"b\".parquet", 5),
            table,
            "a\\,b,c",
            new SignalState(42, true, "id > 3"),
            "1:12.3.100"),
        "{\"snapshot\":true,\"version\":7,\"path\":\"a \\\"b\\\".parquet\",\"row\":5,"
            + "\"table_id\":\"t-1\",\"catalog_table_id\":\"c-1\",\"hidden\":\"a\\\\,b,c\","
            + "\"signal_offset\":42,\"paused\":true,\"snapshot_filter\":\"id > 3\","
            + "\"handover\":\"1:12.3.100\"}");
    JsonConverter store = new JsonConverter();
    store.configure(Map.of("schemas.enable", "false"), false);

    stored.forEach(
        (offset, json) -> {
          Map<String, Object> linked = new LinkedHashMap<>(offset);
          assertThat(new String(store.fromConnectData("offsets", null, offset), UTF_8))
              .isEqualTo(json);
          assertThat(offset).isEqualTo(linked).hasSameHashCodeAs(linked);
          assertThat(linked).isEqualTo(offset);
          linked.forEach((key, value) -> assertThat(offset.get(key)).isEqualTo(value));
          assertThat(offset.get("no such key")).isNull();
          assertThat(offset.containsKey("version")).isTrue();
        });
  }

  @Test
  void anOffsetCannotBeChanged() {
    Map<String, Object> offset = OffsetCodec.toMap(new ChangePosition.InVersion(12, 3, 100));

    assertThatThrownBy(() -> offset.put("version", 13L))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> offset.entrySet().iterator().next().setValue(13L))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
