package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.delta.testing.LowMemoryReader;
import io.deltacdf.connect.testing.ChildProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot of 1,000,000 rows, a version of 1,000,000 inserted rows and a version of 2,000,000 cdc
 * rows (an UPDATE of every row) stream through a reader JVM limited to 128 MiB of heap.
 */
class BoundedMemoryTest {

  private static final int ROWS = 1_000_000;

  @TempDir static Path dir;
  private static String path;

  @BeforeAll
  static void createLargeTable() {
    path = dir.resolve("large").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING, amount DECIMAL(18,2), at TIMESTAMP)"
            + " USING delta TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='false')",
        path);
    // Two large files: the reader must stream inside a file, not just between files.
    spark()
        .range(0, ROWS, 1, 2)
        .selectExpr(
            "id",
            "concat('customer-', id) AS name",
            "CAST(id / 100 AS DECIMAL(18,2)) AS amount",
            "timestamp_seconds(1700000000 + id) AS at")
        .write()
        .format("delta")
        .mode("append")
        .save(path);
    sql("UPDATE delta.`%s` SET amount = amount + 1", path);
  }

  @Test
  void snapshotAndLargeVersionsStreamThroughASmallHeap() throws Exception {
    List<String> fromSnapshot = readInSmallJvm("snapshot");
    assertThat(fromSnapshot).contains("2 insert " + ROWS).noneMatch(l -> l.startsWith("1 "));

    List<String> fromVersionOne = readInSmallJvm("1");
    assertThat(fromVersionOne)
        .contains("1 insert " + ROWS, "2 update_preimage " + ROWS, "2 update_postimage " + ROWS);
    assertThat(fromVersionOne)
        .filteredOn(line -> line.startsWith("max heap "))
        .singleElement()
        .satisfies(
            line -> assertThat(Integer.parseInt(line.split(" ")[2])).isLessThanOrEqualTo(128));
  }

  private static List<String> readInSmallJvm(String start) throws IOException {
    return ChildProcess.runToEnd(
        "LowMemoryReader",
        ChildProcess.javaCommand(
            List.of("-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
            LowMemoryReader.class,
            path,
            start),
        dir.resolve("reader-" + start + ".log"),
        Duration.ofMinutes(5));
  }
}
