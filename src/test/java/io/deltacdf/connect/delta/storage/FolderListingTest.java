package io.deltacdf.connect.delta.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A folder listed from a name on, as the log tailer lists {@code _delta_log}: every file at or
 * after the name, in name order, across several pages, without the folders in it — on the local
 * disk (read without Hadoop) and through a Hadoop file system whose listing order is unknown.
 */
class FolderListingTest {

  /** More than two pages, so that pages follow each other at their boundaries. */
  private static final int FILES = 2 * FolderListing.PAGE_SIZE + 345;

  @TempDir java.nio.file.Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"file", "unordered"})
  void listsEveryFileFromTheStartNameInNameOrder(String scheme) throws IOException {
    List<String> names = logFolder();
    String from = names.get(700);

    List<String> listed = list(fileSystem(scheme), from);

    assertThat(listed).containsExactlyElementsOf(names.subList(700, names.size()));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"file", "unordered"})
  void aStartNameBetweenFilesListsFromTheNextOne(String scheme) throws IOException {
    List<String> names = logFolder();

    List<String> listed = list(fileSystem(scheme), names.get(FILES - 3).replace(".json", ".z"));

    assertThat(listed).containsExactly(names.get(FILES - 2), names.get(FILES - 1));
  }

  @Test
  void aStartNameAfterEveryFileListsNothing() throws IOException {
    logFolder();

    assertThat(list(fileSystem("file"), "99999999999999999999.json")).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"file", "unordered"})
  void aMissingFolderFailsAsHadoopDoes(String scheme) {
    Path missing = new Path(dir.resolve("missing").toUri().toString(), "00.json");

    assertThatThrownBy(() -> FolderListing.from(fileSystem(scheme), missing))
        .isInstanceOf(FileNotFoundException.class);
  }

  /** Commit files created in random order, and a folder that sorts among them; sorted names. */
  private List<String> logFolder() throws IOException {
    List<String> names =
        new ArrayList<>(
            IntStream.range(0, FILES).mapToObj(v -> String.format("%020d.json", v)).toList());
    List<String> shuffled = new ArrayList<>(names);
    Collections.shuffle(shuffled, new Random(42));
    for (String name : shuffled) {
      Files.createFile(dir.resolve(name));
    }
    Files.createDirectory(dir.resolve(String.format("%020d.folder", 1000)));
    return names;
  }

  private List<String> list(FileSystem fs, String from) throws IOException {
    List<String> names = new ArrayList<>();
    try (CloseableIterator<FileStatus> files =
        FolderListing.from(fs, new Path(dir.toUri().toString(), from))) {
      while (files.hasNext()) {
        names.add(new Path(files.next().getPath()).getName());
      }
    }
    return names;
  }

  /**
   * The local file system, or the same files through a Hadoop file system of a scheme whose listing
   * order the tailer does not know, so it pages by passes over Hadoop's listing.
   */
  private static FileSystem fileSystem(String scheme) throws IOException {
    // Hadoop's raw local file system names no scheme of its own; the tailer reads a scheme's
    // listing by that name.
    RawLocalFileSystem fs =
        new RawLocalFileSystem() {
          @Override
          public String getScheme() {
            return scheme;
          }
        };
    fs.initialize(URI.create("file:///"), new Configuration());
    return fs;
  }
}
