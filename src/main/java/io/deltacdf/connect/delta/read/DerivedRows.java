package io.deltacdf.connect.delta.read;

import io.deltacdf.connect.change.ChangeType;
import java.util.List;

/** Decides, row by row and in feed order, which candidate rows of a derived version are changes. */
public interface DerivedRows {

  /**
   * What a candidate row becomes ({@code side} is delete for a row leaving the table, insert for
   * one entering it), or null when it is no change.
   */
  ChangeType decide(ChangeType side, Candidate row);

  /**
   * Columns of the data files, by physical name, that are not in the table's schema and that the
   * decisions read (row tracking's materialized row id and commit version columns): read as 64-bit
   * integers, null where a file lacks them. None by default.
   */
  default List<String> hiddenColumns() {
    return List.of();
  }

  /**
   * Whether decisions read the rows' {@link Candidate#values()}; when they do not and {@link
   * #hiddenColumns()} names some, only those are read from the files.
   */
  default boolean readsValues() {
    return true;
  }

  /** The candidate row being decided about; its values are decoded only when asked for. */
  interface Candidate {

    Object[] values();

    /** The row's physical index in its file. */
    long physicalRow();

    /**
     * The value of {@link #hiddenColumns()}' column {@code index}, or {@code whenNull} where the
     * row has none (unboxed: it is read for every row of every file a version rewrites).
     */
    long hidden(int index, long whenNull);
  }
}
