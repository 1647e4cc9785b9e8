package io.deltacdf.connect.task;

import io.deltacdf.connect.convert.HeartbeatRecords;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Heartbeats store the positions of tables that moved without a record: past versions without rows
 * of interest, or to where a {@code latest} or timestamp start resolved. A snapshot slice stores
 * its position at once, whatever heartbeat.interval.ms says: the connector waits for every slice to
 * store the position after the snapshot, also one whose last files had no rows.
 */
final class Heartbeats {

  private final HeartbeatRecords records;
  private final long intervalMs;

  /**
   * @param intervalMs heartbeat.interval.ms; 0 sends none but those of snapshot slices
   */
  Heartbeats(HeartbeatRecords records, long intervalMs) {
    this.records = records;
    this.intervalMs = intervalMs;
  }

  /** Adds the heartbeats due now to {@code out}; returns how many. */
  int addDue(List<TableStream> streams, List<SourceRecord> out, long nowMs) {
    int added = 0;
    for (TableStream stream : streams) {
      if (intervalMs == 0 && !stream.slice()) {
        continue;
      }
      SourceRecord heartbeat =
          stream.heartbeatIfDue(records, nowMs, stream.slice() ? 0 : intervalMs);
      if (heartbeat != null) {
        out.add(heartbeat);
        added++;
      }
    }
    return added;
  }

  /** What a heartbeat record looks like: also sent when an aborted transaction rewinds a table. */
  HeartbeatRecords records() {
    return records;
  }
}
