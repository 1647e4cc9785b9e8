package io.deltacdf.connect.delta.testing;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code counting:}, counting the calls that would be
 * requests to an object store. Hadoop creates the instances (see {@link #settings()}), so the
 * counts are shared by all of them.
 */
public final class CountingFileSystem extends RawLocalFileSystem {

  public static final String SCHEME = "counting";

  private static final AtomicLong lists = new AtomicLong();
  private static final AtomicLong listedEntries = new AtomicLong();
  private static final AtomicLong statuses = new AtomicLong();
  private static final AtomicLong opens = new AtomicLong();
  private static final AtomicLong bytesRead = new AtomicLong();

  /** The local listing stats each entry: those are part of the listing, not calls of their own. */
  private static final ThreadLocal<Boolean> listing = ThreadLocal.withInitial(() -> false);

  /** The Hadoop settings that map the {@code counting:} scheme to this class. */
  public static Map<String, String> settings() {
    return Map.of("fs." + SCHEME + ".impl", CountingFileSystem.class.getName());
  }

  public static void reset() {
    lists.set(0);
    listedEntries.set(0);
    statuses.set(0);
    opens.set(0);
    bytesRead.set(0);
  }

  /** The bytes read from opened files since the last {@link #reset()}. */
  public static long bytesRead() {
    return bytesRead.get();
  }

  /** The calls since the last {@link #reset()}, by kind. */
  public static Map<String, Long> counts() {
    Map<String, Long> counts = new TreeMap<>();
    counts.put("list calls", lists.get());
    counts.put("listed entries", listedEntries.get());
    counts.put("getFileStatus calls", statuses.get());
    counts.put("open calls", opens.get());
    return counts;
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
  public FileStatus[] listStatus(Path path) throws IOException {
    lists.incrementAndGet();
    listing.set(true);
    try {
      FileStatus[] listed = super.listStatus(path);
      listedEntries.addAndGet(listed.length);
      return listed;
    } finally {
      listing.set(false);
    }
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    if (!listing.get()) {
      statuses.incrementAndGet();
    }
    return super.getFileStatus(path);
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    opens.incrementAndGet();
    return new FSDataInputStream(new CountingStream(super.open(path, bufferSize)));
  }

  /** A file's stream, counting the bytes read through it. */
  private static final class CountingStream extends FSInputStream {
    private final FSDataInputStream in;

    CountingStream(FSDataInputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        bytesRead.incrementAndGet();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      if (n > 0) {
        bytesRead.addAndGet(n);
      }
      return n;
    }

    @Override
    public void seek(long position) throws IOException {
      in.seek(position);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long target) throws IOException {
      return in.seekToNewSource(target);
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
