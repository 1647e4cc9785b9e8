package io.deltacdf.connect.delta.table;

import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.kernel.KernelPaths;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Resolves file paths written in the log against the table root, and refuses those that lead
 * outside it unless the operator allowed that: the log is data, and must not be able to make the
 * connector read arbitrary files.
 */
public final class TablePaths {

  private TablePaths() {}

  /**
   * The file a log entry names. The log holds a URI (a space is {@code %20}, a {@code %} is {@code
   * %25}), while the table root, as the file system resolved it, is a plain path whose spaces and
   * {@code %} are literal: each is parsed as what it is, so that neither is decoded twice nor
   * encoded twice.
   */
  public static String resolve(FeedContext context, long version, String logPath) {
    String resolved;
    try {
      resolved = KernelPaths.resolve(context.tableRoot(), new URI(logPath));
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          "Table "
              + context.table()
              + " version "
              + version
              + " names an invalid file path '"
              + logPath
              + "'",
          e);
    }
    requireInside(context, version, logPath, resolved);
    return resolved;
  }

  /** Checks an already absolute path (e.g. of a deletion vector file). */
  public static void requireInside(
      FeedContext context, long version, String logPath, String resolved) {
    if (context.filesOutsideTableAllowed()) {
      return;
    }
    // Resolution against the root already removed '.' and '..' segments of relative paths.
    String root = context.tableRoot().replaceAll("/+$", "") + "/";
    if (!resolved.startsWith(root) || resolved.contains("/../") || resolved.endsWith("/..")) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.UNSUPPORTED_TABLE,
          "Table "
              + context.table()
              + " version "
              + version
              + " points at file '"
              + logPath
              + "', which lies outside the table's folder "
              + root
              + ". The connector refuses to read it. If the table is a shallow clone that"
              + " legitimately references its source table's files, set"
              + " files.outside.table.allowed=true");
    }
  }
}
