package io.deltacdf.connect.convert;

/** The envelope's {@code source.snapshot}: whether a record is part of the initial snapshot. */
enum SnapshotMark {
  /** A snapshot row other than the last. */
  TRUE("true"),
  /** The snapshot's last row. */
  LAST("last"),
  /** A change after the snapshot. */
  FALSE("false");

  private final String value;

  SnapshotMark(String value) {
    this.value = value;
  }

  String value() {
    return value;
  }
}
