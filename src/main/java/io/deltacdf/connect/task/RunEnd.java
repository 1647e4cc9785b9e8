package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.EndSpec;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Where a bounded run (end.version or end.timestamp) ends for each table: the last version its feed
 * reads, resolved when the table is opened, as its start is. A start that leaves nothing to read up
 * to the end is refused, naming both; a resumed position past the end is simply done.
 */
final class RunEnd {

  /** The last version of a table read by an unbounded run. */
  static final long UNBOUNDED = Long.MAX_VALUE;

  private final Optional<EndSpec> end;

  RunEnd(Optional<EndSpec> end) {
    this.end = end;
  }

  /**
   * The last version {@code table} reads, or {@link #UNBOUNDED}.
   *
   * @param start where the table's feed starts
   * @param resumed whether {@code start} is a stored offset (a run that reached its end and
   *     restarts resumes after it)
   */
  long lastVersion(
      String table,
      DeltaTable deltaTable,
      LatestSnapshot latest,
      ChangePosition start,
      boolean resumed) {
    if (end.isEmpty()) {
      return UNBOUNDED;
    }
    long last = deltaTable.resolveEnd(end.get(), latest);
    if (!resumed) {
      requireReadable(table, start, last);
    }
    return last;
  }

  private void requireReadable(String table, ChangePosition start, long last) {
    String endSetting = describe(end.get());
    if (start.inSnapshot() && start.version() > last) {
      throw new ConnectException(
          "Table "
              + table
              + " starts with a snapshot at version "
              + start.version()
              + " (its latest version when it started), after the last version "
              + last
              + " of "
              + endSetting
              + ": a snapshot cannot be taken as of an older version. Set the end at or after"
              + " version "
              + start.version()
              + ", or start.mode=version with start.version to replay the changes up to the end");
    }
    if (!start.inSnapshot() && start.version() > last + 1) {
      throw new ConnectException(
          "Table "
              + table
              + " starts at version "
              + start.version()
              + " (where start.mode resolves), after the last version "
              + last
              + " of "
              + endSetting
              + ": the run would read nothing. Set the end at or after version "
              + start.version()
              + ", or an earlier start");
    }
  }

  private static String describe(EndSpec end) {
    if (end instanceof EndSpec.AtVersion at) {
      return DeltaCdfSourceConfig.END_VERSION + "=" + at.version();
    }
    return DeltaCdfSourceConfig.END_TIMESTAMP
        + "="
        + Instant.ofEpochMilli(((EndSpec.AtTimestamp) end).epochMillis());
  }
}
