package io.deltacdf.connect.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.offset.TablePartition;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A unit written to a task's settings and read back there. */
class TaskUnitTest {

  private static final String TABLE = "s3a://bucket/orders";

  @Test
  void everyKindOfUnitRoundTrips() {
    for (TaskUnit unit :
        new TaskUnit[] {
          TaskUnit.table(TABLE),
          TaskUnit.afterSlices(TABLE, 0),
          TaskUnit.afterSlices(TABLE, 41),
          TaskUnit.slice(TABLE, 0, new SnapshotSlice(0, 2)),
          TaskUnit.slice(TABLE, 41, new SnapshotSlice(63, 64))
        }) {
      assertThat(TaskUnit.fromMap(unit.toMap())).as(unit.toString()).isEqualTo(unit);
    }
  }

  /** The versions are written as they are meant, with no offset to remember on reading. */
  @Test
  void theMapNamesTheSnapshotASliceReadsAndTheVersionATableStartsAt() {
    assertThat(TaskUnit.table(TABLE).toMap()).isEqualTo(Map.of("table", TABLE));
    assertThat(TaskUnit.afterSlices(TABLE, 5).toMap())
        .isEqualTo(Map.of("table", TABLE, "start.version", "6"));
    assertThat(TaskUnit.slice(TABLE, 5, new SnapshotSlice(1, 2)).toMap())
        .isEqualTo(Map.of("table", TABLE, "slice", "1/2", "snapshot.version", "5"));
    assertThat(TaskUnit.fromMap(Map.of("table", TABLE, "start.version", "6")).start())
        .isEqualTo(ChangePosition.InVersion.start(6));
  }

  @Test
  void aSliceWithoutItsSnapshotVersionIsRejected() {
    assertThatThrownBy(() -> TaskUnit.fromMap(Map.of("table", TABLE, "slice", "1/2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("snapshot.version");
    assertThatThrownBy(() -> new TaskUnit(new TablePartition(TABLE, new SnapshotSlice(0, 2)), null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
