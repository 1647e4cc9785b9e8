package io.deltacdf.connect.offset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.HiddenColumns;
import io.deltacdf.connect.change.TableIdentity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OffsetCodecTest {

  @Test
  void positionsSurviveTheRoundTrip() {
    for (ChangePosition position :
        List.of(
            ChangePosition.InVersion.start(12),
            new ChangePosition.InVersion(12, 3, 100),
            new ChangePosition.InSnapshot(7, "part=1/a b.parquet", 5),
            ChangePosition.InSnapshot.start(7))) {
      assertThat(OffsetCodec.fromMap(OffsetCodec.toMap(position))).isEqualTo(position);
    }
  }

  @Test
  void offsetsNameTheTableTheyBelongTo() {
    ChangePosition position = new ChangePosition.InVersion(12, 3, 100);
    TableIdentity byPath = new TableIdentity("6f1c-delta", null);
    TableIdentity byName = new TableIdentity("6f1c-delta", "uc-42");

    assertThat(OffsetCodec.toMap(position, byPath, "", SignalState.NONE))
        .isEqualTo(Map.of("version", 12L, "file", 3L, "row", 100L, "table_id", "6f1c-delta"));
    assertThat(OffsetCodec.decode(OffsetCodec.toMap(position, byName, "", SignalState.NONE)))
        .isEqualTo(new StoredOffset(position, byName, HiddenColumns.NONE, SignalState.NONE));
  }

  @Test
  void offsetsCarryTheHandOverAPartitionTakesOver() {
    ChangePosition position = new ChangePosition.InVersion(12, 3, 100);
    TableIdentity table = new TableIdentity("t", null);
    Map<String, Object> offset =
        OffsetCodec.toMap(position, table, "", SignalState.NONE, "1:12.3.100;3:13,-,14.0.5");

    assertThat(offset).containsEntry("handover", "1:12.3.100;3:13,-,14.0.5");
    assertThat(OffsetCodec.decode(offset).handOver())
        .isEqualTo(HandOver.parse("1:12.3.100;3:13,-,14.0.5"));
    assertThat(OffsetCodec.decode(OffsetCodec.toMap(position, table, "", SignalState.NONE)))
        .extracting(StoredOffset::handOver)
        .isNull();
  }

  @Test
  void aMalformedHandOverIsRefused() {
    assertThatThrownBy(() -> OffsetCodec.decode(Map.of("version", 3L, "handover", "3:1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'handover' is <count>:<position>");
    assertThatThrownBy(() -> OffsetCodec.decode(Map.of("version", 3L, "handover", 7L)))
        .hasMessageContaining("'handover' must be a string");
    assertThatThrownBy(
            () ->
                OffsetCodec.decode(
                    Map.of(
                        "snapshot", true, "version", 3L, "path", "", "row", 0L, "handover", "1:3")))
        .hasMessageContaining("a snapshot offset has no 'handover'");
  }

  @Test
  void offsetsCarryWhatSignalsDidToTheTable() {
    SignalState signals = new SignalState(42, true, "region = 'eu'");
    Map<String, Object> offset =
        OffsetCodec.toMap(
            ChangePosition.InSnapshot.start(3), new TableIdentity("t", null), "", signals);

    assertThat(offset)
        .containsEntry("signal_offset", 42L)
        .containsEntry("paused", true)
        .containsEntry("snapshot_filter", "region = 'eu'");
    assertThat(OffsetCodec.decode(offset).signals()).isEqualTo(signals);
    assertThat(OffsetCodec.decode(Map.of("version", 3L)).signals()).isEqualTo(SignalState.NONE);
    assertThatThrownBy(() -> OffsetCodec.decode(Map.of("version", 3L, "paused", "yes")))
        .hasMessageContaining("'paused' must be true or false");
  }

  @Test
  void offsetsCarryTheColumnsTheRulesHid() {
    HiddenColumns hidden =
        HiddenColumns.NONE
            .with(List.of("col-5f1c"), HiddenColumns.Rule.HASH)
            .with(List.of("notes"), HiddenColumns.Rule.EXCLUDED)
            .with(List.of("a,b\\c"), HiddenColumns.Rule.NULL);
    Map<String, Object> offset =
        OffsetCodec.toMap(
            ChangePosition.InVersion.start(3),
            new TableIdentity("t", null),
            OffsetCodec.hiddenText(hidden),
            SignalState.NONE);

    // Connect stores only primitive values in offsets: one string.
    assertThat(offset.get("hidden")).isEqualTo("excluded:notes,hash:col-5f1c,null:a\\,b\\\\\\\\c");
    assertThat(OffsetCodec.decode(offset).hidden()).isEqualTo(hidden);
    assertThat(OffsetCodec.decode(Map.of("version", 3L)).hidden()).isEqualTo(HiddenColumns.NONE);
    assertThatThrownBy(() -> OffsetCodec.decode(Map.of("version", 3L, "hidden", "x")))
        .hasMessageContaining("Hidden column entry 'x'");
    assertThatThrownBy(() -> OffsetCodec.decode(Map.of("version", 3L, "hidden", List.of("x"))))
        .hasMessageContaining("'hidden' must be a string");
  }

  @Test
  void anOffsetWithoutATableIdNamesNoTable() {
    assertThat(OffsetCodec.decode(Map.of("version", 4L)).identity()).isNull();
  }

  @Test
  void aMalformedTableIdIsRefused() {
    assertThatThrownBy(() -> OffsetCodec.decode(Map.of("version", 4L, "table_id", 7L)))
        .hasMessageContaining("'table_id' and 'catalog_table_id' must be strings");
    assertThatThrownBy(() -> OffsetCodec.decode(Map.of("version", 4L, "catalog_table_id", "c")))
        .hasMessageContaining("'catalog_table_id' needs a 'table_id'");
  }

  /** The shapes 0.1.0 stores, written out, so that a change to them cannot pass unnoticed. */
  @Test
  void theStoredShapesAreAContractBetweenReleases() {
    Map<String, Object> inSnapshot =
        Map.of("snapshot", true, "version", 7L, "path", "a.parquet", "row", 5L);
    assertThat(OffsetCodec.toMap(new ChangePosition.InSnapshot(7, "a.parquet", 5)))
        .isEqualTo(inSnapshot);
    assertThat(OffsetCodec.toMap(new ChangePosition.InVersion(12, 3, 100)))
        .isEqualTo(Map.of("version", 12L, "file", 3L, "row", 100L));
    assertThat(OffsetCodec.toMap(ChangePosition.InVersion.start(12)))
        .isEqualTo(Map.of("version", 12L));
  }

  @Test
  void numbersMayComeBackAsIntegers() {
    assertThat(OffsetCodec.fromMap(Map.of("version", 4, "file", 1, "row", 9)))
        .isEqualTo(new ChangePosition.InVersion(4, 1, 9));
    assertThat(OffsetCodec.fromMap(Map.of("version", 4)))
        .isEqualTo(ChangePosition.InVersion.start(4));
  }

  @Test
  void malformedOffsetsSayWhatIsExpected() {
    assertThatThrownBy(() -> OffsetCodec.fromMap(Map.of("version", "five")))
        .hasMessageContaining("'version' must be a whole number")
        .hasMessageContaining("{\"version\": <commit version>}");
    assertThatThrownBy(() -> OffsetCodec.fromMap(Map.of("version", -2L)))
        .hasMessageContaining("0 or more");
    assertThatThrownBy(() -> OffsetCodec.fromMap(Map.of("snapshot", true, "version", 1L)))
        .hasMessageContaining("'path'");
    assertThatThrownBy(() -> TablePartition.fromMap(Map.of("tbl", "x")))
        .hasMessageContaining("{\"table\"");
  }
}
