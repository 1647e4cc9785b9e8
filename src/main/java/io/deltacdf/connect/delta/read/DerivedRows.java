package io.deltacdf.connect.delta.read;

import io.deltacdf.connect.change.ChangeType;

/** Decides, row by row and in feed order, which candidate rows of a derived version are changes. */
public interface DerivedRows {

  /**
   * What a candidate row becomes ({@code side} is delete for a row leaving the table, insert for
   * one entering it), or null when it is no change.
   */
  ChangeType decide(ChangeType side, Object[] values);
}
