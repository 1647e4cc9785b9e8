package io.deltacdf.connect.bench;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.util.List;
import java.util.Map;

/**
 * The read ceiling: our change feed reader (Delta Kernel underneath) reads every change row of a
 * table from version 0, in the connector's batch size, without conversion or Kafka. Runs in a JVM
 * of its own and reports the timed pass's time and CPU. Arguments: table path, batch size, passes
 * (the last pass is timed; earlier ones warm up the JIT), and optionally a key column and a shard
 * count N: then it reads as shard 0 of N, which passes over the other shards' rows.
 */
public final class KernelRead {

  private KernelRead() {}

  public static void main(String[] args) {
    int batchRows = Integer.parseInt(args[1]);
    int passes = Integer.parseInt(args[2]);
    TableShard shard = args.length > 4 ? new TableShard(0, Integer.parseInt(args[4])) : null;
    List<String> keys = args.length > 3 ? List.of(args[3]) : List.of();
    for (int pass = 1; pass < passes; pass++) {
      readAll(args[0], batchRows, keys, shard);
    }
    long start = System.nanoTime();
    long cpuBefore = ProcStatus.ownCpuMillis();
    long rows = readAll(args[0], batchRows, keys, shard);
    ChildJvm.result("rows", rows);
    ChildJvm.result("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
    ChildJvm.result("cpu_ms", ProcStatus.ownCpuMillis() - cpuBefore);
    ChildJvm.result("peak_rss_mib", ProcStatus.ownPeakRssMib());
  }

  private static long readAll(String path, int batchRows, List<String> keys, TableShard shard) {
    long rows = 0;
    try (DeltaTable opened = DeltaTable.open(path, Map.of(), false);
        DeltaChangeFeed feed =
            (shard == null ? opened : opened.shardedBy(shard, keys, opened.latestSnapshot(), null))
                .openFeed(ChangePosition.InVersion.start(0))) {
      ChangeBatch batch;
      while ((batch = feed.next(batchRows)) != null) {
        rows += batch.rows().size();
      }
    }
    return rows;
  }
}
