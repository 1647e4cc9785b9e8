package io.deltacdf.connect.delta.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.delta.testing.HugeCommitReader;
import io.deltacdf.connect.delta.testing.HugeCommitTable;
import io.deltacdf.connect.testing.ChildProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One commit that replaces every file of a table of many files (an INSERT OVERWRITE: half its file
 * actions remove, half add) is planned and streamed by a reader JVM with a small heap: every row
 * arrives, and a reader resumed at a file index deep inside the commit reads exactly the files
 * after it ({@link HugeCommitTable}: hard links to one small Parquet file).
 *
 * <p>CI writes 50,000 file actions and reads them within {@code -Xmx64m}; {@code
 * -Dhuge.commit.files=1000000 -Dhuge.commit.heap=256m} runs the full size.
 */
class HugeCommitTest {

  private static final int FILES = Integer.getInteger("huge.commit.files", 50_000);
  private static final String HEAP = System.getProperty("huge.commit.heap", "64m");

  @TempDir static Path dir;
  private static Path table;

  @BeforeAll
  static void writeHugeCommit() throws IOException {
    table = dir.resolve("huge");
    HugeCommitTable.create(table, FILES);
  }

  @Test
  void aCommitOfManyFilesStreamsThroughASmallHeap() throws Exception {
    int half = FILES / 2;
    long halfRows = (long) half * HugeCommitTable.ROWS_PER_FILE;
    List<String> whole = readInSmallJvm(0);
    assertThat(whole).contains("3 delete " + halfRows, "3 insert " + halfRows);
    // Files are numbered in log order: the removed ones, then the added ones.
    int resumeAt = half + half / 2;
    List<String> resumed = readInSmallJvm(resumeAt);
    assertThat(resumed)
        .contains("3 insert " + (long) (FILES - resumeAt) * HugeCommitTable.ROWS_PER_FILE)
        .noneMatch(line -> line.startsWith("3 delete "));
    System.out.printf(
        "HugeCommitTest: %,d file actions within -Xmx%s: %s; resumed at file %,d:" + " %s%n",
        FILES, HEAP, whole, resumeAt, resumed);
  }

  private static List<String> readInSmallJvm(int fileIndex) throws IOException {
    return ChildProcess.runToEnd(
        "HugeCommitReader",
        ChildProcess.javaCommand(
            List.of("-Xmx" + HEAP, "-XX:+UseSerialGC"),
            HugeCommitReader.class,
            table.toString(),
            Long.toString(HugeCommitTable.VERSION),
            Integer.toString(fileIndex)),
        table.resolveSibling("reader-" + fileIndex + ".log"),
        Duration.ofMinutes(30));
  }
}
