package io.deltacdf.connect.delta.storage;

import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Lists the files of a folder from a name on, in name order, one page at a time, for stores without
 * a listing from a start key. Nothing is listed before the first file is asked for beyond the first
 * page, and a reader that stops early (the connector reads a few hundred commits per listing)
 * leaves the rest of the folder unlisted.
 *
 * <p>Stores whose listings come in name order (ADLS, Azure Blob, HDFS; S3A when it lists with the
 * V1 API) are read through Hadoop's paged {@code listStatusIterator} and skip the names before the
 * start. Elsewhere (the local file system, GCS, unknown stores) the order is not known: each page
 * is one pass over the folder that keeps the {@value #PAGE_SIZE} smallest names after the previous
 * page, so at most a page of names is held, at the cost of one folder pass per page (on the local
 * disk a pass reads names only; the page's files are then statted).
 */
final class FolderListing {

  /** The most files a page of an unordered folder holds. */
  static final int PAGE_SIZE = 1_000;

  /** Schemes whose Hadoop listings return a folder's entries in name order. */
  private static final Set<String> NAME_ORDERED =
      Set.of("abfs", "abfss", "wasb", "wasbs", "hdfs", "s3a");

  private FolderListing() {}

  /**
   * The files of {@code from}'s folder whose names sort at or after its name.
   *
   * @throws java.io.FileNotFoundException when the folder does not exist
   */
  static CloseableIterator<FileStatus> from(FileSystem fs, Path from) throws IOException {
    Path folder = from.getParent();
    String name = from.getName();
    if (NAME_ORDERED.contains(fs.getScheme())) {
      return new Ordered(fs.listStatusIterator(folder), name);
    }
    return new Paged(fs, folder, name);
  }

  private static FileStatus kernelStatus(org.apache.hadoop.fs.FileStatus status) {
    return FileStatus.of(
        status.getPath().toString(), status.getLen(), status.getModificationTime());
  }

  /** A name-ordered listing with the names before the start skipped. */
  private static final class Ordered implements CloseableIterator<FileStatus> {
    private final RemoteIterator<org.apache.hadoop.fs.FileStatus> statuses;
    private final String from;
    private FileStatus next;

    Ordered(RemoteIterator<org.apache.hadoop.fs.FileStatus> statuses, String from)
        throws IOException {
      this.statuses = statuses;
      this.from = from;
      advance(); // a missing folder fails here, as Hadoop's listing does
    }

    private void advance() throws IOException {
      next = null;
      while (next == null && statuses.hasNext()) {
        org.apache.hadoop.fs.FileStatus status = statuses.next();
        if (status.isFile() && status.getPath().getName().compareTo(from) >= 0) {
          next = kernelStatus(status);
        }
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public FileStatus next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      FileStatus current = next;
      try {
        advance();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return current;
    }

    @Override
    public void close() {}
  }

  /** Pages of the smallest names after the previous page, one pass over the folder each. */
  private static final class Paged implements CloseableIterator<FileStatus> {
    /** A name in the folder, with its status when the pass found it (not on local disks). */
    private record Entry(String name, org.apache.hadoop.fs.FileStatus status) {}

    private final FileSystem fs;
    private final Path folder;

    /** The folder on the local disk, read without Hadoop; null for other stores. */
    private final java.nio.file.Path localFolder;

    private final Deque<FileStatus> page = new ArrayDeque<>();

    /** The name the next page starts at (inclusive) or after (exclusive). */
    private String bound;

    private boolean inclusive = true;
    private boolean lastPage;

    Paged(FileSystem fs, Path folder, String from) throws IOException {
      this.fs = fs;
      this.folder = folder;
      this.localFolder =
          "file".equals(fs.getScheme())
              ? java.nio.file.Path.of(fs.makeQualified(folder).toUri())
              : null;
      this.bound = from;
      readPage(); // a missing folder fails here, as Hadoop's listing does
    }

    private void readPage() throws IOException {
      // The largest name kept is on top, so a smaller one can replace it.
      PriorityQueue<Entry> smallest =
          new PriorityQueue<>(Comparator.comparing(Entry::name).reversed());
      boolean[] more = {false};
      pass(
          entry -> {
            int order = entry.name().compareTo(bound);
            if (order > 0 || (order == 0 && inclusive)) {
              smallest.add(entry);
              if (smallest.size() > PAGE_SIZE) {
                smallest.poll();
                more[0] = true;
              }
            }
          });
      Entry[] sorted = smallest.toArray(new Entry[0]);
      Arrays.sort(sorted, Comparator.comparing(Entry::name));
      for (Entry entry : sorted) {
        org.apache.hadoop.fs.FileStatus status =
            entry.status() != null ? entry.status() : localStatus(entry.name());
        if (status != null && status.isFile()) {
          page.add(kernelStatus(status));
        }
      }
      lastPage = !more[0];
      if (sorted.length > 0) {
        bound = sorted[sorted.length - 1].name();
        inclusive = false;
      }
    }

    /**
     * One pass over the folder's entries. The local disk is read straight from the directory:
     * Hadoop would read all its names and stat every one before returning the first.
     */
    private void pass(Consumer<Entry> entries) throws IOException {
      if (localFolder != null) {
        try (DirectoryStream<java.nio.file.Path> names = Files.newDirectoryStream(localFolder)) {
          names.forEach(name -> entries.accept(new Entry(name.getFileName().toString(), null)));
        } catch (NoSuchFileException e) {
          throw new FileNotFoundException(folder + " does not exist");
        }
        return;
      }
      RemoteIterator<org.apache.hadoop.fs.FileStatus> statuses = fs.listStatusIterator(folder);
      while (statuses.hasNext()) {
        org.apache.hadoop.fs.FileStatus status = statuses.next();
        entries.accept(new Entry(status.getPath().getName(), status));
      }
    }

    /** The status of a local file, or null when it went since the pass. */
    private org.apache.hadoop.fs.FileStatus localStatus(String name) throws IOException {
      try {
        return fs.getFileStatus(new Path(folder, name));
      } catch (FileNotFoundException e) {
        return null;
      }
    }

    @Override
    public boolean hasNext() {
      if (page.isEmpty() && !lastPage) {
        try {
          readPage();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return !page.isEmpty();
    }

    @Override
    public FileStatus next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return page.removeFirst();
    }

    @Override
    public void close() {}
  }
}
