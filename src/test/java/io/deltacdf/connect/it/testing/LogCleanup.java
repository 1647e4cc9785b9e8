package io.deltacdf.connect.it.testing;

import static io.deltacdf.connect.testing.SparkHarness.sql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A log cleaned up behind a connector whose filter lets no row of the last versions through: only
 * the position its heartbeats stored lets it resume.
 */
public final class LogCleanup {

  private LogCleanup() {}

  /**
   * On a table of {@code (id, name)} at version 1 with a row of id 1 and checkpoints every 2
   * versions: four updates of that row (versions 2 to 5, which connector {@code name} filters out)
   * until it stored version 6; then, with the worker stopped, deletes commits 0 to 3 (the
   * checkpoint at 4 stays), commits an insert of id 2 as version 6 and starts the worker again.
   */
  public static void afterFilteredUpdates(
      KafkaCluster cluster, String name, String path, Duration timeout) throws IOException {
    for (int i = 0; i < 4; i++) {
      sql("UPDATE delta.`%s` SET name = 'u%d' WHERE id = 1", path, i); // v2..v5, filtered out
    }
    cluster.rest().awaitStoredVersion(name, path, 6, timeout);

    cluster.stopWorker();
    Path log = Path.of(path, "_delta_log");
    for (int version = 0; version < 4; version++) {
      Files.delete(log.resolve(String.format("%020d.json", version))); // checkpoint at 4 stays
    }
    sql("INSERT INTO delta.`%s` VALUES (2, 'b')", path); // v6
    cluster.startWorker();
  }
}
