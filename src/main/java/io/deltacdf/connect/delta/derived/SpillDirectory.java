package io.deltacdf.connect.delta.derived;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Local temp files of one diffed version, in a folder of their own that is created on first use
 * and deleted, with every file in it, on {@link #close}.
 *
 * @see DiffSpill
 */
final class SpillDirectory implements AutoCloseable {

  private final Path parent;
  private Path folder;
  private final List<Path> files = new ArrayList<>();

  SpillDirectory(Path parent) {
    this.parent = parent;
  }

  /** A new empty file in the folder. */
  Path newFile(String prefix) {
    try {
      if (folder == null) {
        Files.createDirectories(parent);
        folder = Files.createTempDirectory(parent, "delta-cdf-diff-");
      }
      Path file = Files.createTempFile(folder, prefix, ".bin");
      files.add(file);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a spill file under " + parent, e);
    }
  }

  /** Deletes a file before the folder goes, as soon as it is no longer read. */
  void delete(Path file) {
    files.remove(file);
    deleteQuietly(file);
  }

  @Override
  public void close() {
    files.forEach(SpillDirectory::deleteQuietly);
    files.clear();
    if (folder != null) {
      deleteQuietly(folder);
      folder = null;
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // A file still mapped cannot be deleted on some systems; the JVM's exit removes it there.
      path.toFile().deleteOnExit();
    }
  }
}
