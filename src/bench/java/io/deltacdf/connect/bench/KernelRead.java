package io.deltacdf.connect.bench;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.util.Map;

/**
 * The read ceiling: our change feed reader (Delta Kernel underneath) reads every change row of a
 * table from version 0, in the connector's batch size, without conversion or Kafka. Runs in a JVM
 * of its own. Arguments: table path, batch size.
 */
public final class KernelRead {

  private KernelRead() {}

  public static void main(String[] args) {
    int batchRows = Integer.parseInt(args[1]);
    long start = System.nanoTime();
    long rows = 0;
    try (DeltaTable table = DeltaTable.open(args[0], Map.of(), false);
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(0))) {
      ChangeBatch batch;
      while ((batch = feed.next(batchRows)) != null) {
        rows += batch.rows().size();
      }
    }
    ChildJvm.result("rows", rows);
    ChildJvm.result("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
    ChildJvm.result("peak_rss_mib", ProcStatus.ownPeakRssMib());
  }
}
