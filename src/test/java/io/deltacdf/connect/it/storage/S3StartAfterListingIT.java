package io.deltacdf.connect.it.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.deltacdf.connect.delta.storage.TableFileIO;
import io.deltacdf.connect.testing.S3Mock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link TableFileIO#listFrom} on S3A lists from a name on with {@code StartAfter} and returns what
 * Hadoop's listing of the whole folder would have kept: the files at or after the name, sorted,
 * with their sizes and times, across pages, without subfolders.
 */
class S3StartAfterListingIT {

  private static final String BUCKET = "listing";
  private static final String LOG = "s3a://" + BUCKET + "/table/_delta_log";

  private static S3Mock s3;
  private static Configuration configuration;
  private static final TreeSet<String> files = new TreeSet<>();

  @BeforeAll
  static void writeLog() throws IOException {
    s3 = S3Mock.start(BUCKET);
    configuration = new Configuration();
    s3.hadoopSettings().forEach(configuration::set);
    configuration.set("fs.s3a.paging.maximum", "3"); // several pages per listing
    for (int version = 0; version < 12; version++) {
      files.add(String.format("%020d.json", version));
      files.add(String.format("%020d.crc", version));
    }
    files.add(String.format("%020d.checkpoint.parquet", 10));
    files.add("_last_checkpoint");
    try (FileSystem fs = FileSystem.newInstance(URI.create(LOG), configuration)) {
      for (String file : files) {
        fs.create(new Path(LOG + "/" + file)).close();
      }
      fs.create(new Path(LOG + "/_staged_commits/00000000000000000012.uuid.json")).close();
    }
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void listsWhatAWholeFolderListingKeeps() throws IOException {
    try (TableFileIO io = new TableFileIO(configuration)) {
      String from = String.format("%020d.", 5);
      assertThat(listed(io, from))
          .isEqualTo(hadoopListing(from))
          .hasSize(files.tailSet(from).size());
      assertThat(listed(io, "0")).isEqualTo(hadoopListing("0")).hasSize(files.size());
      // StartAfter is exclusive: the file named exactly as the start is listed too.
      assertThat(listed(io, "_last_checkpoint"))
          .isEqualTo(hadoopListing("_last_checkpoint"))
          .hasSize(1);
      assertThat(listed(io, "_m")).isEmpty(); // after every file; _staged_commits is a folder
    }
  }

  @Test
  void aMissingFolderIsNotFound() throws IOException {
    try (TableFileIO io = new TableFileIO(configuration)) {
      assertThrows(
          FileNotFoundException.class,
          () -> io.listFrom("s3a://" + BUCKET + "/missing/_delta_log/0"));
    }
  }

  /** Name, size and time of each file {@code listFrom} returns for {@code from}. */
  private static List<String> listed(TableFileIO io, String from) throws IOException {
    List<String> listed = new ArrayList<>();
    try (CloseableIterator<FileStatus> files = io.listFrom(LOG + "/" + from)) {
      files.forEachRemaining(
          f ->
              listed.add(
                  new Path(f.getPath()).getName()
                      + " "
                      + f.getSize()
                      + " "
                      + f.getModificationTime()));
    }
    return listed;
  }

  /** The same from Hadoop's listing of the whole folder (the times Spark sees). */
  private static List<String> hadoopListing(String from) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(URI.create(LOG), configuration)) {
      return Arrays.stream(fs.listStatus(new Path(LOG)))
          .filter(f -> f.isFile() && f.getPath().getName().compareTo(from) >= 0)
          .map(f -> f.getPath().getName() + " " + f.getLen() + " " + f.getModificationTime())
          .sorted()
          .toList();
    }
  }
}
