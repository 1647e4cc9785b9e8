package io.deltacdf.connect.task;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.offset.TablePartition;
import org.junit.jupiter.api.Test;

/** A unit of a task: a slice always starts in its snapshot. */
class TaskUnitTest {

  @Test
  void aSliceWithoutItsSnapshotIsRejected() {
    assertThatThrownBy(
            () ->
                new TaskUnit(
                    new TablePartition("s3a://bucket/orders", new SnapshotSlice(0, 2)), null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
