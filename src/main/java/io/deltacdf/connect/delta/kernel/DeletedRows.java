package io.deltacdf.connect.delta.kernel;

/** The physical rows of a data file that a deletion vector hides. */
@FunctionalInterface
public interface DeletedRows {

  boolean contains(long row);
}
