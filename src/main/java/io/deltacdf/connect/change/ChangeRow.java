package io.deltacdf.connect.change;

/**
 * One row of the change feed.
 *
 * @param values column values aligned with the batch schema's fields (see {@link FieldType})
 * @param after the position just after this row: resuming there yields the rows that follow it
 */
public record ChangeRow(
    ChangeType type, long version, long commitTimestampMs, Object[] values, ChangePosition after) {}
