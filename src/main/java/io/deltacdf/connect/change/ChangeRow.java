package io.deltacdf.connect.change;

/**
 * One row of the change feed.
 *
 * @param label the {@code _change_type} value as the table holds it: the type's label, or for
 *     {@link ChangeType#CUSTOM} the value the writer put there
 * @param values column values aligned with the batch schema's fields (see {@link FieldType})
 * @param after the position just after this row: resuming there yields the rows that follow it
 */
public record ChangeRow(
    ChangeType type,
    String label,
    long version,
    long commitTimestampMs,
    Object[] values,
    ChangePosition after) {

  /** A row of one of the standard types. */
  public ChangeRow(
      ChangeType type,
      long version,
      long commitTimestampMs,
      Object[] values,
      ChangePosition after) {
    this(type, type.label(), version, commitTimestampMs, values, after);
  }
}
