package io.deltacdf.connect.delta.kernel;

import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.internal.util.FileNames;
import java.net.URI;

/** Names of log files, and paths the log writes resolved as Kernel resolves them. */
public final class KernelPaths {

  private KernelPaths() {}

  /** The full path of the commit file of {@code version} in the folder {@code logPath}. */
  public static String commitFile(String logPath, long version) {
    return FileNames.deltaFile(logPath, version);
  }

  /** The name a listing starts from to find the files of {@code version} and after. */
  public static String listingPrefix(String logPath, long version) {
    return FileNames.listingPrefix(new Path(logPath), version);
  }

  /**
   * {@code path} (relative or absolute) resolved against {@code root}, a plain path.
   *
   * @throws IllegalArgumentException when the two do not make a path
   */
  public static String resolve(String root, URI path) {
    return new Path(new Path(root), new Path(path)).toString();
  }
}
