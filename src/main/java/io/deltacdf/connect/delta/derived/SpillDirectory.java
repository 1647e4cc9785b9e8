package io.deltacdf.connect.delta.derived;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Local temp files of one diffed version, in a folder of their own that is created on first use
 * and deleted on {@link #close}, with every file in it closed and deleted first: whatever path
 * the version's read took (finished, failed, stopped), closing this frees all its disk blocks.
 *
 * @see DiffSpill
 */
final class SpillDirectory implements AutoCloseable {

  private final Path parent;
  private Path folder;
  private final List<SpillFile> files = new ArrayList<>();

  SpillDirectory(Path parent) {
    this.parent = parent;
  }

  /** A new empty file in the folder. */
  SpillFile newFile(String prefix) {
    try {
      if (folder == null) {
        Files.createDirectories(parent);
        folder = Files.createTempDirectory(parent, "delta-cdf-diff-");
      }
      Path path = Files.createTempFile(folder, prefix, ".bin");
      SpillFile file = new SpillFile(path);
      files.add(file);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a spill file under " + parent, e);
    }
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
