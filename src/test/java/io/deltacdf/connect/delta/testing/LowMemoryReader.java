package io.deltacdf.connect.delta.testing;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a whole feed in a JVM of its own (started with a small heap by {@link BoundedMemoryTest})
 * and prints {@code version type count} lines, so the test can check that every row streamed
 * through without the JVM running out of memory.
 */
public final class LowMemoryReader {

  private LowMemoryReader() {}

  /** Arguments: table path, then {@code snapshot} or the version to start at. */
  public static void main(String[] args) {
    String path = args[0];
    ChangePosition start =
        args[1].equals("snapshot")
            ? DeltaTable.open(path, Map.of(), false).resolveStart(new StartSpec.Snapshot())
            : ChangePosition.InVersion.start(Long.parseLong(args[1]));
    Map<String, Long> counts = new TreeMap<>();
    try (DeltaChangeFeed feed = DeltaTable.open(path, Map.of(), false).openFeed(start)) {
      ChangeBatch batch;
      while ((batch = feed.next(2_000)) != null) {
        for (ChangeRow row : batch.rows()) {
          counts.merge(row.version() + " " + row.type().label(), 1L, Long::sum);
        }
      }
    }
    counts.forEach((key, count) -> System.out.println(key + " " + count));
    System.out.println("max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB");
  }
}
