package io.deltacdf.connect.delta;

import io.deltacdf.connect.delta.errors.KernelErrors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Finds the Delta tables below a folder: every folder that holds a {@code _delta_log}. A table's
 * folder is listed once (that is how its log is seen) and never descended into, so its data files
 * are not walked; folders whose name starts with '_' or '.' (Spark's and Hadoop's own) are skipped.
 * Symbolic links below the root are not followed (a {@code _delta_log} that is one makes no table):
 * a link could lead out of the root, or to a table of the root, which would then stream twice under
 * two paths.
 */
public final class TableDiscovery {

  /**
   * @param tables each table as its root URI joined with its path below the root, in path order
   * @param listCalls the LIST requests the scan made (one per folder visited)
   */
  public record Found(List<String> tables, long listCalls) {}

  private TableDiscovery() {}

  /**
   * The tables at most {@code maxDepth} folder levels below {@code root} (the root itself, if a
   * table, is the only one).
   *
   * @throws DeltaFeedException when the root does not exist or cannot be listed
   */
  public static Found under(String root, Map<String, String> hadoopSettings, int maxDepth) {
    String base = root.replaceAll("/+$", "");
    Configuration configuration = new Configuration();
    hadoopSettings.forEach(configuration::set);
    Path rootPath = new Path(base);
    List<String> tables = new ArrayList<>();
    long listCalls = 0;
    try (FileSystem fs = FileSystem.newInstance(rootPath.toUri(), configuration)) {
      record Folder(Path path, String relative, int depth) {}
      Deque<Folder> pending = new ArrayDeque<>();
      pending.add(new Folder(rootPath, "", 0));
      while (!pending.isEmpty()) {
        Folder folder = pending.poll();
        FileStatus[] children;
        try {
          children = fs.listStatus(folder.path());
          listCalls++;
        } catch (FileNotFoundException e) {
          if (folder.depth() == 0) {
            throw new DeltaFeedException(
                DeltaFeedException.Kind.TABLE_NOT_FOUND,
                "Table root " + root + " does not exist: check delta.tables.root",
                e);
          }
          continue; // removed while the scan ran
        }
        List<Folder> below = new ArrayList<>();
        boolean table = false;
        for (FileStatus child : children) {
          if (!child.isDirectory() || isLink(fs, child)) {
            continue;
          }
          String name = child.getPath().getName();
          if (name.equals("_delta_log")) {
            table = true;
          } else if (!name.startsWith("_") && !name.startsWith(".")) {
            String relative = folder.relative().isEmpty() ? name : folder.relative() + "/" + name;
            below.add(new Folder(child.getPath(), relative, folder.depth() + 1));
          }
        }
        if (table) {
          tables.add(folder.relative().isEmpty() ? base : base + "/" + folder.relative());
        } else if (folder.depth() < maxDepth) {
          pending.addAll(below);
        }
      }
    } catch (DeltaFeedException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw KernelErrors.translate(root, "its folders (table discovery)", e);
    }
    tables.sort(null);
    return new Found(List.copyOf(tables), listCalls);
  }

  /** Hadoop's local listing follows links without saying so: ask the local file system. */
  private static boolean isLink(FileSystem fs, FileStatus child) {
    return child.isSymlink()
        || ("file".equals(fs.getScheme())
            && Files.isSymbolicLink(java.nio.file.Path.of(child.getPath().toUri())));
  }
}
