package io.deltacdf.connect.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The bytes of files under a folder that this JVM still holds, deleted or not, through a memory
 * mapping ({@code /proc/self/maps}) or an open descriptor ({@code /proc/self/fd}): the disk blocks
 * of a deleted file are freed only once neither is left, which file names cannot show. Only this
 * process's own handles count, so what other processes do on the same disk does not move it. Linux
 * only ({@link #available}).
 */
public final class HeldFiles {

  private static final Path MAPS = Path.of("/proc/self/maps");
  private static final Path DESCRIPTORS = Path.of("/proc/self/fd");
  private static final String DELETED = " (deleted)";

  private HeldFiles() {}

  public static boolean available() {
    return Files.isReadable(MAPS) && Files.isDirectory(DESCRIPTORS);
  }

  /** Bytes mapped from files under {@code root}. */
  public static long mappedBytes(Path root) {
    String prefix = folderPrefix(root);
    try {
      long bytes = 0;
      for (String line : Files.readAllLines(MAPS)) {
        // address perms offset dev inode path
        String[] fields = line.trim().split("\\s+", 6);
        if (fields.length == 6 && withoutDeleted(fields[5]).startsWith(prefix)) {
          String[] range = fields[0].split("-");
          bytes += Long.parseUnsignedLong(range[1], 16) - Long.parseUnsignedLong(range[0], 16);
        }
      }
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The sizes of the files under {@code root} that descriptors are open on. */
  public static long openBytes(Path root) {
    String prefix = folderPrefix(root);
    List<Path> descriptors;
    try (Stream<Path> listed = Files.list(DESCRIPTORS)) {
      descriptors = listed.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long bytes = 0;
    for (Path descriptor : descriptors) {
      try {
        if (withoutDeleted(Files.readSymbolicLink(descriptor).toString()).startsWith(prefix)) {
          // The link leads to the file itself, even once it is deleted.
          bytes += Files.size(descriptor);
        }
      } catch (IOException e) {
        // Closed while listed (the listing's own descriptor, or another thread's).
      }
    }
    return bytes;
  }

  /** Both: every byte of {@code root}'s files whose disk blocks this JVM keeps. */
  public static long heldBytes(Path root) {
    return mappedBytes(root) + openBytes(root);
  }

  private static String folderPrefix(Path root) {
    try {
      return root.toRealPath() + "/";
    } catch (IOException e) {
      // Not created yet, or gone: its path as given.
      return root.toAbsolutePath().normalize() + "/";
    }
  }

  private static String withoutDeleted(String path) {
    return path.endsWith(DELETED) ? path.substring(0, path.length() - DELETED.length()) : path;
  }
}
