package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.utils.FileStatus;
import java.util.List;

/** The checkpoint files a snapshot was loaded from. */
public final class SnapshotCheckpoints {

  private SnapshotCheckpoints() {}

  /** The full paths of {@code snapshot}'s checkpoint parts; none when it has no checkpoint. */
  public static List<String> of(Snapshot snapshot) {
    if (!(snapshot instanceof SnapshotImpl loaded)) {
      return List.of();
    }
    return loaded.getLogSegment().getCheckpoints().stream().map(FileStatus::getPath).toList();
  }
}
