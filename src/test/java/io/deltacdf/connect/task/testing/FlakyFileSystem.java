package io.deltacdf.connect.task.testing;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code flaky:}, which can be switched off: every call then
 * fails as an unreachable store does (connection refused), until it is switched on again.
 */
public final class FlakyFileSystem extends RawLocalFileSystem {

  private static final String SCHEME = "flaky";
  private static final AtomicBoolean down = new AtomicBoolean();

  /**
   * Files whose opening fails as if the store had gone down just for them, by name: how many more
   * openings succeed before that.
   */
  private static final Map<String, AtomicInteger> unreachable = new ConcurrentHashMap<>();

  /** The connector settings that map the {@code flaky:} scheme to this class. */
  public static Map<String, String> settings() {
    return Map.of("hadoop.fs." + SCHEME + ".impl", FlakyFileSystem.class.getName());
  }

  public static String uri(java.nio.file.Path path) {
    return SCHEME + "://" + path.toAbsolutePath();
  }

  public static void down(boolean isDown) {
    down.set(isDown);
    if (!isDown) {
      unreachable.clear();
    }
  }

  /** Makes opening the file named {@code fileName} fail until the store is up again. */
  public static void unreachable(String fileName) {
    unreachableAfter(fileName, 0);
  }

  /** As {@link #unreachable}, after {@code openings} more successful openings of the file. */
  public static void unreachableAfter(String fileName, int openings) {
    unreachable.put(fileName, new AtomicInteger(openings));
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
  public FileStatus getFileStatus(Path path) throws IOException {
    failWhenDown();
    return super.getFileStatus(path);
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    failWhenDown();
    return super.listStatus(path);
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    failWhenDown();
    AtomicInteger openings = unreachable.get(path.getName());
    if (openings != null && openings.getAndDecrement() <= 0) {
      throw new java.net.ConnectException("Connection refused (reading " + path.getName() + ")");
    }
    return super.open(path, bufferSize);
  }

  private static void failWhenDown() throws IOException {
    if (down.get()) {
      throw new java.net.ConnectException("Connection refused (the store is down for this test)");
    }
  }
}
