package io.deltacdf.connect.convert;

import java.util.Map;
import java.util.UUID;

/**
 * A notification about a table or a signal, with Debezium's fields, so that tooling written for
 * Debezium's notifications reads ours.
 *
 * @param aggregateType what it is about, such as "Initial Snapshot" or "Signal"
 * @param type what happened, such as STARTED, IN_PROGRESS, COMPLETED, ABORTED, ACCEPTED, REJECTED
 * @param additionalData details, all strings, as Debezium has them
 */
public record Notification(
    String id,
    String aggregateType,
    String type,
    Map<String, String> additionalData,
    long timestamp) {

  public Notification {
    additionalData = Map.copyOf(additionalData);
  }

  /** A notification with a new id. */
  public static Notification of(
      String aggregateType, String type, Map<String, String> additionalData, long timestamp) {
    return new Notification(
        UUID.randomUUID().toString(), aggregateType, type, additionalData, timestamp);
  }
}
