package io.deltacdf.connect.delta;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.exceptions.KernelException;

/** Loads snapshots and checks table-level preconditions, with errors that say what to do. */
final class TableAccess {

  private TableAccess() {}

  static Snapshot latestSnapshot(FeedContext context) {
    try {
      return TableManager.loadSnapshot(context.tableRoot()).build(context.engine());
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), "its latest version", e);
    }
  }

  static Snapshot snapshotAt(FeedContext context, long version) {
    try {
      return TableManager.loadSnapshot(context.tableRoot()).atVersion(version).build(context.engine());
    } catch (KernelException e) {
      if (e instanceof io.delta.kernel.exceptions.TableNotFoundException) {
        throw KernelErrors.translate(context.table(), "version " + version, e);
      }
      // Kernel reports truncated history and missing delta files as plain KernelExceptions.
      throw new DeltaFeedException(
          DeltaFeedException.Kind.HISTORY_MISSING,
          "Table "
              + context.table()
              + " cannot be read at version "
              + version
              + ": "
              + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), "version " + version, e);
    }
  }

  static void requireChangeDataFeed(FeedContext context, TableSchema schema, long version) {
    if (!schema.changeDataFeedEnabled()) {
      throw new DeltaFeedException(
          DeltaFeedException.Kind.CDF_DISABLED,
          "Table "
              + context.table()
              + " does not record its change data feed at version "
              + version
              + " (table property "
              + TableSchema.CDF_PROPERTY
              + " is not true), so its changes cannot be read from there. Enable it with ALTER"
              + " TABLE ... SET TBLPROPERTIES ('"
              + TableSchema.CDF_PROPERTY
              + "'='true') and start at a version after that, or start from a snapshot");
    }
  }
}
