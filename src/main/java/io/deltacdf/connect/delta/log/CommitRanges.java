package io.deltacdf.connect.delta.log;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.utils.CloseableIterator;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.deltacdf.connect.delta.table.FeedContext;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** Opens runs of consecutive commits for reading their actions, with errors a user can act on. */
public final class CommitRanges {

  /** Every kind of action: how a commit is read to plan it. */
  public static final Set<LogAction.Kind> ALL_ACTIONS = EnumSet.allOf(LogAction.Kind.class);

  /** The actions the files of a commit too large to hold are read from. */
  public static final Set<LogAction.Kind> FILE_ACTIONS =
      EnumSet.of(LogAction.Kind.ADD, LogAction.Kind.REMOVE, LogAction.Kind.CDC);

  private CommitRanges() {}

  /** The commits {@code from} to {@code to}, each read for the actions of {@code kinds}. */
  public static CloseableIterator<CommitActions> open(
      FeedContext context, long from, long to, Set<LogAction.Kind> kinds) {
    try {
      CommitRange range =
          context.catalogCommits().isPresent()
              ? context
                  .catalogCommits()
                  .get()
                  .range(context.engine(), context.tableRoot(), from, to)
              : TableManager.loadCommitRange(context.tableRoot(), CommitBoundary.atVersion(from))
                  .withEndBoundary(CommitBoundary.atVersion(to))
                  .build(context.engine());
      return LogActions.commits(range, context.engine(), kinds);
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), "versions " + from + " to " + to, e);
    }
  }

  /**
   * Reads the file actions of commit {@code version} again, each time from its first: how the files
   * of a commit too large to hold are read.
   */
  public static CommitReader reader(FeedContext context, DeltaLog log, long version) {
    return () -> {
      CloseableIterator<CommitActions> single = open(context, version, version, FILE_ACTIONS);
      try {
        CommitActions actions = single.next();
        return new Closing<>(actions.getActions(), actions, single);
      } catch (Exception e) {
        closeQuietly(single, e);
        throw KernelErrors.translate(
            context.table(), "version " + version, log.commitFile(version), e);
      }
    };
  }

  private static void closeQuietly(AutoCloseable closeable, Exception failure) {
    try {
      closeable.close();
    } catch (Exception e) {
      failure.addSuppressed(e);
    }
  }

  /** The in-commit timestamp of commit {@code version}, when it has one. */
  public static Optional<Long> inCommitTimestamp(FeedContext context, DeltaLog log, long version) {
    try (CloseableIterator<CommitActions> single =
            open(context, version, version, EnumSet.of(LogAction.Kind.COMMIT_INFO));
        CommitActions actions = single.next();
        CloseableIterator<ColumnarBatch> batches = actions.getActions()) {
      while (batches.hasNext()) {
        LogActions infos = LogActions.of(batches.next());
        for (int row = 0; row < infos.size(); row++) {
          if (infos.at(row) instanceof LogAction.CommitInfo info) {
            return info.inCommitTimestamp();
          }
        }
      }
      return Optional.empty();
    } catch (DeltaFeedException e) {
      throw e;
    } catch (Exception e) {
      throw KernelErrors.translate(
          context.table(), "version " + version, log.commitFile(version), e);
    }
  }

  /** An iterator that also closes what it was opened from. */
  private record Closing<T>(CloseableIterator<T> values, AutoCloseable... owners)
      implements CloseableIterator<T> {
    @Override
    public boolean hasNext() {
      return values.hasNext();
    }

    @Override
    public T next() {
      return values.next();
    }

    @Override
    public void close() throws IOException {
      try (values) {
        for (AutoCloseable owner : owners) {
          owner.close();
        }
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }
}
