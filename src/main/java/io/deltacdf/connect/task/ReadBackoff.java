package io.deltacdf.connect.task;

import io.deltacdf.connect.delta.DeltaFeedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's store is unreachable for now: the stream rests with a growing delay (1 s doubling to 30
 * s) and warns once per outage, instead of failing the task or retrying in a tight loop.
 */
final class ReadBackoff {

  private static final Logger log = LoggerFactory.getLogger(ReadBackoff.class);
  private static final long MAX_MS = 30_000;

  private final String table;
  private final Redaction redaction;
  private int failures;

  ReadBackoff(String table, Redaction redaction) {
    this.table = table;
    this.redaction = redaction;
  }

  /** A read failed for now with {@code e}: returns until when the stream rests. */
  long failed(DeltaFeedException e, long nowMs) {
    failures++;
    if (failures == 1) {
      log.warn(
          "{}; retrying from the last position read with backoff",
          redaction.redact(e.getMessage()));
    }
    return nowMs + Math.min(MAX_MS, 1_000L << Math.min(failures - 1, 5));
  }

  /** A read succeeded: the outage, if there was one, is over. */
  void succeeded() {
    if (failures > 0) {
      log.info("Table {} is readable again after {} failed attempts", table, failures);
      failures = 0;
    }
  }
}
