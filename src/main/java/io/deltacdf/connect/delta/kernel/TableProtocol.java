package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.tablefeatures.TableFeatures;

/** What a table's protocol asks of its readers, beyond what Kernel's own check enforces. */
public final class TableProtocol {

  private TableProtocol() {}

  /**
   * Whether the table's commits are ratified by its catalog (reader feature {@code
   * catalogManaged}): its newest commits may then be known only to the catalog, not yet published
   * to {@code _delta_log}, so a reader by path would miss them.
   */
  public static boolean catalogManaged(Snapshot snapshot) {
    return TableFeatures.isCatalogManagedSupported(((SnapshotImpl) snapshot).getProtocol());
  }
}
