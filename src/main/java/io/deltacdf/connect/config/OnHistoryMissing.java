package io.deltacdf.connect.config;

/** What a task does when the changes it must read next are gone (on.history.missing). */
public enum OnHistoryMissing {
  /** Stop with an error naming the table, the version and the ways out. */
  FAIL,
  /** Warn and start over from a snapshot of the table's latest version. */
  RESNAPSHOT
}
