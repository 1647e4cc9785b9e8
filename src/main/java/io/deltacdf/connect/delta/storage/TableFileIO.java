package io.deltacdf.connect.delta.storage;

import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.fileio.InputFile;
import io.delta.kernel.defaults.engine.fileio.OutputFile;
import io.delta.kernel.defaults.engine.hadoopio.HadoopInputFile;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;

/**
 * Read-only file access for one table through file system instances it owns.
 *
 * <p>Hadoop caches file systems per JVM by scheme, authority and user, not by settings, so two
 * connectors in one worker reading the same bucket or container would share the credentials of
 * whichever came first, and a rotated key would not take effect until a restart. Each table
 * therefore gets its own uncached instances, closed with the table.
 */
public final class TableFileIO implements FileIO, Closeable {

  private final Configuration configuration;
  private final Map<String, FileSystem> fileSystems = new ConcurrentHashMap<>();

  public TableFileIO(Configuration configuration) {
    this.configuration = configuration;
  }

  @Override
  public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
    Path path = new Path(filePath);
    FileSystem fileSystem = fileSystem(path);
    if (fileSystem instanceof S3AFileSystem s3a) {
      CloseableIterator<FileStatus> listed = S3StartAfterListing.listFrom(s3a, path);
      if (listed != null) {
        return listed;
      }
    }
    // Other stores have no listing from a name on: page through the folder, lazily.
    return FolderListing.from(fileSystem, path);
  }

  @Override
  public FileStatus getFileStatus(String filePath) throws IOException {
    Path path = new Path(filePath);
    org.apache.hadoop.fs.FileStatus status = fileSystem(path).getFileStatus(path);
    return FileStatus.of(
        status.getPath().toString(), status.getLen(), status.getModificationTime());
  }

  @Override
  public String resolvePath(String filePath) throws IOException {
    Path path = new Path(filePath);
    return fileSystem(path).makeQualified(path).toString();
  }

  @Override
  public InputFile newInputFile(String filePath, long fileSize) {
    Path path = new Path(filePath);
    try {
      return new HadoopInputFile(fileSystem(path), path, fileSize);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not open the file system of " + filePath, e);
    }
  }

  @Override
  public Optional<String> getConf(String key) {
    return Optional.ofNullable(configuration.get(key));
  }

  @Override
  public boolean mkdirs(String path) {
    throw readOnly();
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw readOnly();
  }

  @Override
  public boolean delete(String path) {
    throw readOnly();
  }

  @Override
  public void copyFileAtomically(String source, String destination, boolean overwrite) {
    throw readOnly();
  }

  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (FileSystem fileSystem : fileSystems.values()) {
      try {
        fileSystem.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    fileSystems.clear();
    if (failure != null) {
      throw failure;
    }
  }

  private FileSystem fileSystem(Path path) throws IOException {
    URI uri = path.toUri();
    URI root = uri.getScheme() == null ? FileSystem.getDefaultUri(configuration) : uri;
    String key =
        root.getScheme() + "://" + (root.getAuthority() == null ? "" : root.getAuthority());
    FileSystem existing = fileSystems.get(key);
    if (existing != null) {
      return existing;
    }
    FileSystem created = FileSystem.newInstance(URI.create(key + "/"), configuration);
    FileSystem raced = fileSystems.putIfAbsent(key, created);
    if (raced != null) {
      created.close();
      return raced;
    }
    return created;
  }

  private static UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException("The connector only reads tables");
  }
}
