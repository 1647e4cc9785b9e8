package io.deltacdf.connect.connector;

import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.TablePartition;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The offsets the Connect offsets API may store for this connector: offsets of the configured
 * tables in the shapes {@link OffsetCodec} documents, or a null offset, which resets a table to
 * start.mode. A reset is accepted for any table, also one that was removed from the configuration
 * or whose path was respelled: its stored offset would otherwise stay forever.
 */
public final class OffsetAlterations {

  private OffsetAlterations() {}

  /**
   * @param tables the configured table paths
   * @throws ConnectException naming the first offset that may not be stored, and why
   */
  public static void requireValid(
      DeltaCdfSourceConfig config, Map<Map<String, ?>, Map<String, ?>> offsets) {
    for (Map.Entry<Map<String, ?>, Map<String, ?>> entry : offsets.entrySet()) {
      try {
        TablePartition partition = TablePartition.fromMap(entry.getKey());
        if (entry.getValue() == null) {
          continue;
        }
        if (!config.isConfiguredTable(partition.table())) {
          throw new IllegalArgumentException(
              "Table "
                  + partition.table()
                  + " is not one of this connector's tables "
                  + config.namedTables()
                  + (config.tableRoots().isEmpty()
                      ? ""
                      : " nor below its roots " + config.tableRoots())
                  + "; use the table URI exactly as in "
                  + DeltaCdfSourceConfig.TABLE_PATHS
                  + ", the name exactly as in unity.catalog.tables,"
                  + " or the root joined with the table's folders");
        }
        OffsetCodec.decode(entry.getValue());
      } catch (IllegalArgumentException e) {
        throw new ConnectException(e.getMessage(), e);
      }
    }
  }
}
