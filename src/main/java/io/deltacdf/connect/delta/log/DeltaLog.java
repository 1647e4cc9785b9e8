package io.deltacdf.connect.delta.log;

import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.catalog.CatalogCommits;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.KernelPaths;
import io.deltacdf.connect.delta.table.FeedContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Finds commit files of the {@code _delta_log} folder. A reader that has caught up learns that
 * nothing is new from two file probes, whatever the table's history; the folder is listed (from a
 * version on) only when there is something to read.
 */
public final class DeltaLog {

  private static final Pattern COMMIT_FILE = Pattern.compile("\\d{20}\\.json");

  private final FeedContext context;
  private final String logPath;

  public DeltaLog(FeedContext context) {
    this.context = context;
    this.logPath = context.tableRoot().replaceAll("/+$", "") + "/_delta_log";
  }

  /** The full path of the commit file of {@code version}. */
  public String commitFile(long version) {
    return KernelPaths.commitFile(logPath, version);
  }

  /** A commit file and the version it holds. */
  public record Commit(long version, long modificationTime) {}

  /**
   * The consecutive commits from {@code fromVersion} on, at most {@code limit} of them; empty when
   * {@code fromVersion} has not been committed (or was cleaned up).
   */
  public List<Commit> commitsFrom(long fromVersion, int limit) {
    return list(fromVersion, limit, false);
  }

  /**
   * Like {@link #commitsFrom}, for a reader that must continue at {@code fromVersion}: fails when
   * that commit is gone while later ones exist (the log was cleaned up past the reader), instead of
   * waiting forever for a version that will never appear.
   */
  public List<Commit> nextCommits(long fromVersion, int limit) {
    if (notCommittedYet(fromVersion)) {
      return List.of();
    }
    return list(fromVersion, limit, true);
  }

  /**
   * Like {@link #nextCommits}, for a reader that has just read {@code fromVersion - 1}: that commit
   * must still be there, or the table was deleted or recreated since.
   */
  public List<Commit> commitsAfterRead(long fromVersion, int limit) {
    if (notCommittedYet(fromVersion)) {
      return List.of();
    }
    // The commit just read must still be there: a log that lost it was deleted or recreated,
    // and would otherwise look like a table without new commits.
    List<Commit> commits = list(fromVersion - 1, limit + 1, true);
    if (commits.isEmpty()) {
      throw tableGone(fromVersion - 1);
    }
    return commits.subList(1, commits.size());
  }

  /**
   * Whether {@code version} is known not to be committed yet without listing the folder: its file
   * is missing and the one before it is there. A log only gains the next commit and loses its
   * oldest ones, so then no later commit exists either and the history still reaches back to the
   * reader. Listing costs a request per page of the folder on object stores (a pass over the
   * folder's names elsewhere); these probes cost one request each. Commit times still come from
   * listings only: some S3-compatible stores list finer times than a file's status shows.
   */
  private boolean notCommittedYet(long version) {
    if (context.catalogCommits().isPresent()) {
      // A ratified commit may not be published yet: the catalog knows the latest version.
      return version > ratification().latestVersion() && !exists(version);
    }
    return version > 0 && !exists(version) && exists(version - 1);
  }

  private CatalogCommits.Ratification ratification() {
    try {
      return context.catalogCommits().get().ratification(context.tableRoot());
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), "its catalog's commits", e);
    }
  }

  private boolean exists(long version) {
    try {
      context
          .engine()
          .getFileSystemClient()
          .getFileStatus(KernelPaths.commitFile(logPath, version));
      return true;
    } catch (IOException | RuntimeException e) {
      if (KernelErrors.isMissingFile(e)) {
        return false;
      }
      throw KernelErrors.translate(context.table(), "its _delta_log folder", e);
    }
  }

  private List<Commit> list(long fromVersion, int limit, boolean requireFirst) {
    List<Commit> commits = new ArrayList<>();
    String start = KernelPaths.listingPrefix(logPath, fromVersion);
    try (CloseableIterator<FileStatus> files =
        context.engine().getFileSystemClient().listFrom(start)) {
      long expected = fromVersion;
      while (files.hasNext() && commits.size() < limit) {
        FileStatus file = files.next();
        String name = file.getPath().substring(file.getPath().lastIndexOf('/') + 1);
        if (!COMMIT_FILE.matcher(name).matches()) {
          continue;
        }
        long version = Long.parseLong(name.substring(0, 20));
        if (version != expected) {
          if (requireFirst && commits.isEmpty()) {
            throw historyMissing(fromVersion, version);
          }
          break;
        }
        commits.add(new Commit(version, file.getModificationTime()));
        expected++;
      }
      if (context.catalogCommits().isPresent() && commits.size() < limit) {
        // Ratified commits not yet published follow the published ones.
        for (CatalogCommits.Ratified ratified : ratification().unpublished()) {
          if (ratified.version() == expected && commits.size() < limit) {
            commits.add(new Commit(ratified.version(), ratified.modificationTime()));
            expected++;
          }
        }
      }
    } catch (java.io.FileNotFoundException e) {
      if (requireFirst) {
        throw tableGone(fromVersion);
      }
      return commits;
    } catch (IOException | RuntimeException e) {
      if (requireFirst && KernelErrors.isMissingFile(e)) {
        throw tableGone(fromVersion);
      }
      throw KernelErrors.translate(context.table(), "its _delta_log folder", e);
    }
    return commits;
  }

  private DeltaFeedException tableGone(long version) {
    return new DeltaFeedException(
        DeltaFeedException.Kind.TABLE_REPLACED,
        "Table "
            + context.table()
            + " no longer has commit version "
            + version
            + ", which the connector already read: the table was deleted, moved or recreated."
            + " If it was recreated, restart the connector from a fresh snapshot (DELETE its"
            + " offsets, or set on.history.missing=resnapshot); otherwise fix delta.table.paths");
  }

  private DeltaFeedException historyMissing(long version, long firstAvailable) {
    return new DeltaFeedException(
        DeltaFeedException.Kind.HISTORY_MISSING,
        "Table "
            + context.table()
            + ": the log of version "
            + version
            + " was cleaned up (the oldest commit after it is version "
            + firstAvailable
            + "), so the changes from version "
            + version
            + " on cannot be read. Move the connector's offset to a later version (PATCH"
            + " /connectors/<name>/offsets) or restart it from a fresh snapshot (DELETE its"
            + " offsets with start.mode=snapshot)");
  }

  /** The oldest commit file still present, or -1 when the log has none. */
  public long earliestCommitVersion() {
    try (CloseableIterator<FileStatus> files =
        context.engine().getFileSystemClient().listFrom(logPath + "/0")) {
      while (files.hasNext()) {
        FileStatus file = files.next();
        String name = file.getPath().substring(file.getPath().lastIndexOf('/') + 1);
        if (COMMIT_FILE.matcher(name).matches()) {
          return Long.parseLong(name.substring(0, 20));
        }
      }
      return -1;
    } catch (java.io.FileNotFoundException e) {
      return -1;
    } catch (IOException | RuntimeException e) {
      throw KernelErrors.translate(context.table(), "its _delta_log folder", e);
    }
  }
}
