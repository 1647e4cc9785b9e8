package io.deltacdf.connect.task;

/** Per-table metrics of a running task, published over JMX. */
public interface TableMetricsMBean {

  /** The commit version of the last record handed to Connect, or -1 before the first. */
  long getLastVersion();

  /** Where the table's feed continues, as stored in the source offset. */
  String getPosition();

  /** The newest commit version seen in the table's log. */
  long getLatestTableVersion();

  /** How many committed versions have not been fully read yet. */
  long getVersionsBehind();

  /** Milliseconds between now and the commit time of the last record, while behind; else 0. */
  long getCommitLagMs();

  long getRowsInserted();

  long getRowsUpdatePreimage();

  long getRowsUpdatePostimage();

  long getRowsDeleted();

  /** Data files of the initial snapshot read so far, and in all. */
  long getSnapshotFilesDone();

  long getSnapshotFilesTotal();

  /** Bytes of data and change files read. */
  long getBytesRead();

  /**
   * Commit versions read to their end whose change rows came from their cdc files (the Change Data
   * Feed). A version read again (after a failure inside it, or when an exactly-once transaction is
   * aborted) counts again.
   */
  long getVersionsFromCdf();

  /** As {@link #getVersionsFromCdf()}, for versions whose rows were paired by row tracking. */
  long getVersionsFromRowTracking();

  /** As {@link #getVersionsFromCdf()}, for versions derived by the key diff. */
  long getVersionsDerived();

  /** How often on.history.missing=resnapshot started the table over from a snapshot. */
  long getResnapshots();

  /**
   * How often the stored offset turned out to belong to another table that had this path or name
   * (deleted and re-created), and on.history.missing=resnapshot started the new table by
   * start.mode.
   */
  long getAnotherTableStarts();

  /**
   * The last version a bounded run (end.version or end.timestamp) reads of the table, once the
   * table is opened; -1 when the run is unbounded.
   */
  long getEndVersion();

  /**
   * Whether a bounded run has read the table up to and including {@link #getEndVersion()} and reads
   * no more: the table is done. Connect's status stays RUNNING; this attribute and a log line say
   * it.
   */
  boolean isEndReached();
}
