package io.deltacdf.connect.delta;

/**
 * A change feed that cannot be read as asked. The message names the table, the version when there
 * is one, what is wrong, and what the user can do about it.
 */
public final class DeltaFeedException extends RuntimeException {

  /** What went wrong, so callers can attach the error to the right setting or retry. */
  public enum Kind {
    /** The path holds no Delta table. */
    TABLE_NOT_FOUND,
    /** The change data feed is not enabled at the requested versions. */
    CDF_DISABLED,
    /** The requested start lies outside the table's readable history. */
    INVALID_START,
    /** Log files or data files the feed needs were removed (log cleanup, VACUUM). */
    HISTORY_MISSING,
    /** The table at the path is no longer the one the feed was reading: replaced or deleted. */
    TABLE_REPLACED,
    /** The store refused the credentials, or they lack permission to read the table. */
    ACCESS_DENIED,
    /** The table uses a feature this connector or Delta Kernel cannot read. */
    UNSUPPORTED_TABLE,
    /** A file of the table cannot be parsed (corrupt or truncated): retrying cannot help. */
    CORRUPT_FILE,
    /** The row filter does not fit the table: no such partition column, or a mistyped literal. */
    ROW_FILTER_MISFIT,
    /** Storage failed in a way that may pass: retrying later can succeed. */
    TRANSIENT
  }

  private final Kind kind;

  public DeltaFeedException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public DeltaFeedException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
