package io.deltacdf.connect.delta;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangePosition;
import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read that fails leaves no file open: a task retries such reads for as long as it runs. */
class OpenStreamsTest {

  @TempDir Path dir;

  @Test
  void readsOfDataFilesThatFailLeaveNoStreamOpen() throws IOException {
    String path = dir.resolve("orders").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` SELECT id, concat('name-', id) FROM range(0, 2000, 1, 1)", path);
    String uri = FailingDataReads.SCHEME + "://" + path;

    try (DeltaTable table = DeltaTable.open(uri, FailingDataReads.settings(), false)) {
      FailingDataReads.failing = true;
      // From the start of the file, and from a row inside it (the rows before it are skipped).
      for (ChangePosition start :
          List.of(ChangePosition.InVersion.start(1), new ChangePosition.InVersion(1, 0, 10))) {
        DeltaChangeFeed feed = table.openFeed(start);
        assertThatThrownBy(() -> feed.next(100)).isInstanceOf(DeltaFeedException.class);
        feed.close();
      }
    } finally {
      FailingDataReads.failing = false;
    }

    assertThat(FailingDataReads.failedReads.get()).as("reads that failed").isPositive();
    assertThat(FailingDataReads.open).as("streams left open").isEmpty();
  }

  /**
   * The local file system under {@code failing:}: while {@link #failing}, reading a data file's
   * rows fails as a dropped connection does (its footer, at the end, still reads). Tracks the
   * streams that are open.
   */
  public static final class FailingDataReads extends RawLocalFileSystem {

    static final String SCHEME = "failing";

    /** Parquet data pages start right after the 4-byte magic; the footer is at the end. */
    private static final long DATA_END = 1024;

    static volatile boolean failing;
    static final AtomicInteger failedReads = new AtomicInteger();
    static final Set<String> open = ConcurrentHashMap.newKeySet();

    static Map<String, String> settings() {
      return Map.of("fs." + SCHEME + ".impl", FailingDataReads.class.getName());
    }

    @Override
    public URI getUri() {
      return URI.create(SCHEME + ":///");
    }

    @Override
    public String getScheme() {
      return SCHEME;
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path path, int bufferSize)
        throws IOException {
      FSDataInputStream local = super.open(path, bufferSize);
      boolean dataFile =
          path.getName().endsWith(".parquet") && !path.toString().contains("_delta_log");
      String id = path + "#" + System.identityHashCode(local);
      open.add(id);
      return new FSDataInputStream(new Tracked(local, id, dataFile));
    }

    /** A stream that leaves {@link #open} when closed and fails reads of data pages. */
    private static final class Tracked extends FSInputStream {
      private final FSDataInputStream local;
      private final String id;
      private final boolean dataFile;

      Tracked(FSDataInputStream local, String id, boolean dataFile) {
        this.local = local;
        this.id = id;
        this.dataFile = dataFile;
      }

      private void check(long position) throws IOException {
        if (failing && dataFile && position < DATA_END) {
          failedReads.incrementAndGet();
          throw new java.net.SocketException("Connection reset (reading " + id + ")");
        }
      }

      @Override
      public int read() throws IOException {
        check(local.getPos());
        return local.read();
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        check(local.getPos());
        return local.read(buffer, offset, length);
      }

      @Override
      public int read(long position, byte[] buffer, int offset, int length) throws IOException {
        check(position);
        return local.read(position, buffer, offset, length);
      }

      @Override
      public void readFully(long position, byte[] buffer, int offset, int length)
          throws IOException {
        check(position);
        local.readFully(position, buffer, offset, length);
      }

      @Override
      public void seek(long position) throws IOException {
        if (position < 0) {
          throw new EOFException("Negative position " + position);
        }
        local.seek(position);
      }

      @Override
      public long getPos() throws IOException {
        return local.getPos();
      }

      @Override
      public boolean seekToNewSource(long target) {
        return false;
      }

      @Override
      public int available() throws IOException {
        return local.available();
      }

      @Override
      public void close() throws IOException {
        open.remove(id);
        local.close();
      }
    }
  }
}
