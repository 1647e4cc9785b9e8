package io.deltacdf.connect.delta;

import io.deltacdf.connect.delta.errors.KernelErrors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Tells a table from a folder whose {@code _delta_log} holds no commit yet: an aborted or ongoing
 * first write leaves such a folder, and it only becomes a table once a commit or a checkpoint lands
 * there. Costs one LIST request per folder (the log's first page: commits sort first).
 */
public final class TableLogs {

  /** A commit ({@code 00000000000000000000.json}) or a checkpoint, of any kind. */
  private static final Pattern COMMIT_OR_CHECKPOINT =
      Pattern.compile("\\d{20}\\.(json|checkpoint\\..+)");

  private TableLogs() {}

  /**
   * Those of {@code tables}, folders below {@code root} that hold a {@code _delta_log}, whose log
   * holds no commit or checkpoint (or is gone).
   *
   * @throws DeltaFeedException when a log cannot be listed
   */
  public static Set<String> withoutCommits(
      String root, Collection<String> tables, Map<String, String> hadoopSettings) {
    Set<String> without = new LinkedHashSet<>();
    if (tables.isEmpty()) {
      return without;
    }
    Configuration configuration = new Configuration();
    hadoopSettings.forEach(configuration::set);
    try (FileSystem fs = FileSystem.newInstance(new Path(root).toUri(), configuration)) {
      for (String table : tables) {
        if (!holdsCommit(fs, new Path(table, "_delta_log"))) {
          without.add(table);
        }
      }
    } catch (IOException | RuntimeException e) {
      throw KernelErrors.translate(root, "the logs of its tables (table discovery)", e);
    }
    return without;
  }

  private static boolean holdsCommit(FileSystem fs, Path log) throws IOException {
    try {
      RemoteIterator<FileStatus> files = fs.listStatusIterator(log);
      while (files.hasNext()) {
        if (COMMIT_OR_CHECKPOINT.matcher(files.next().getPath().getName()).matches()) {
          return true;
        }
      }
      return false;
    } catch (FileNotFoundException e) {
      return false; // removed while the scan ran
    }
  }
}
