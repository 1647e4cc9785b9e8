package io.deltacdf.connect.delta.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.delta.testing.HugeCommitReader;
import io.deltacdf.connect.delta.testing.HugeDvCommitTable;
import io.deltacdf.connect.testing.ChildProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One commit that updates the deletion vector of every file of a table of many files (a predicate
 * DELETE: each file removed and added again, the pairs far apart and in no order) is planned and
 * streamed by a reader JVM with a small heap: exactly the newly deleted row of each file arrives as
 * a delete, and a reader resumed at a file index deep inside the commit reads exactly the files
 * after it ({@link HugeDvCommitTable}).
 *
 * <p>CI writes 50,000 updates and reads them within {@code -Xmx64m}; {@code
 * -Dhuge.dv.updates=1000000 -Dhuge.dv.heap=256m} runs the full size.
 */
class HugeDvCommitTest {

  private static final int UPDATES = Integer.getInteger("huge.dv.updates", 50_000);
  private static final String HEAP = System.getProperty("huge.dv.heap", "64m");

  @TempDir static Path dir;
  private static Path table;

  @BeforeAll
  static void writeHugeCommit() throws IOException {
    table = dir.resolve("huge-dv");
    HugeDvCommitTable.create(table, UPDATES);
  }

  @Test
  void aCommitOfManyDeletionVectorUpdatesStreamsThroughASmallHeap() throws Exception {
    List<String> whole = readInSmallJvm(0);
    assertThat(whole)
        .contains("3 delete " + UPDATES)
        .noneMatch(line -> line.startsWith("3 insert "));
    // Files are numbered by the first action of their path: the removes, in path order.
    int resumeAt = UPDATES / 2 + UPDATES / 4;
    List<String> resumed = readInSmallJvm(resumeAt);
    assertThat(resumed)
        .contains("3 delete " + (UPDATES - resumeAt))
        .noneMatch(line -> line.startsWith("3 insert "));
    System.out.printf(
        "HugeDvCommitTest: %,d deletion vector updates within -Xmx%s: %s;"
            + " resumed at file %,d: %s%n",
        UPDATES, HEAP, whole, resumeAt, resumed);
  }

  private static List<String> readInSmallJvm(int fileIndex) throws IOException {
    return ChildProcess.runToEnd(
        "HugeCommitReader",
        ChildProcess.javaCommand(
            List.of("-Xmx" + HEAP, "-XX:+UseSerialGC"),
            HugeCommitReader.class,
            table.toString(),
            Long.toString(HugeDvCommitTable.VERSION),
            Integer.toString(fileIndex)),
        table.resolveSibling("reader-" + fileIndex + ".log"),
        Duration.ofMinutes(30));
  }
}
