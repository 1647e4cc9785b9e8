package io.deltacdf.connect.delta.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Local temp files of one diffed version (or of one huge commit's plan), in a folder of their own
 * that is created on first use and deleted on {@link #close}, with every file in it closed and
 * deleted first: whatever path the read took (finished, failed, stopped), closing this frees all
 * its disk blocks.
 *
 * @see DiffSpill
 */
public final class SpillDirectory implements AutoCloseable {

  private final Path parent;
  private final String folderPrefix;
  private Path folder;
  private final List<SpillFile> files = new ArrayList<>();
  private final List<Path> paths = new ArrayList<>();

  /** Files in a folder named {@code folderPrefix} and a random suffix under {@code parent}. */
  public SpillDirectory(Path parent, String folderPrefix) {
    this.parent = parent;
    this.folderPrefix = folderPrefix;
  }

  /** A new empty spill file of longs in the folder. */
  public SpillFile newFile(String prefix) {
    try {
      SpillFile file = new SpillFile(newEmptyFile(prefix));
      files.add(file);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a spill file under " + parent, e);
    }
  }

  /**
   * A new empty file in the folder for a caller that reads and writes it itself (and closes what it
   * opened on it); it is deleted on {@link #close}.
   */
  public Path newPath(String prefix) {
    try {
      Path path = newEmptyFile(prefix);
      paths.add(path);
      return path;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a spill file under " + parent, e);
    }
  }

  private Path newEmptyFile(String prefix) throws IOException {
    if (folder == null) {
      Files.createDirectories(parent);
      folder = Files.createTempDirectory(parent, folderPrefix);
    }
    return Files.createTempFile(folder, prefix, ".bin");
  }

  /** Closes and deletes a file before the folder goes, as soon as it is no longer read. */
  void delete(SpillFile file) {
    files.remove(file);
    file.close();
  }

  @Override
  public void close() {
    files.forEach(SpillFile::close);
    files.clear();
    for (Path path : paths) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        path.toFile().deleteOnExit();
      }
    }
    paths.clear();
    if (folder != null) {
      try {
        Files.deleteIfExists(folder);
      } catch (IOException e) {
        folder.toFile().deleteOnExit();
      }
      folder = null;
    }
  }
}
