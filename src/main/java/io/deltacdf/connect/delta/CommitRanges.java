package io.deltacdf.connect.delta;

import io.deltacdf.connect.delta.kernel.LogAction;
import io.deltacdf.connect.delta.kernel.LogActions;
import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.TableManager;
import io.delta.kernel.utils.CloseableIterator;
import java.util.Set;

/** Opens runs of consecutive commits for reading their actions, with errors a user can act on. */
final class CommitRanges {

  private CommitRanges() {}

  /** The commits {@code from} to {@code to}, each read for the actions of {@code kinds}. */
  static CloseableIterator<CommitActions> open(
      FeedContext context, long from, long to, Set<LogAction.Kind> kinds) {
    try {
      CommitRange range =
          TableManager.loadCommitRange(context.tableRoot(), CommitBoundary.atVersion(from))
              .withEndBoundary(CommitBoundary.atVersion(to))
              .build(context.engine());
      return LogActions.commits(range, context.engine(), kinds);
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), "versions " + from + " to " + to, e);
    }
  }

  /** What commit {@code version} contributes to the change feed. */
  static VersionPlan planOne(FeedContext context, DeltaLog log, long version) {
    try (CloseableIterator<CommitActions> single =
            open(context, version, version, CommitPlanner.ACTIONS);
        CommitActions actions = single.next()) {
      return CommitPlanner.plan(context.table(), actions);
    } catch (DeltaFeedException e) {
      throw e;
    } catch (Exception e) {
      throw KernelErrors.translate(
          context.table(), "version " + version, log.commitFile(version), e);
    }
  }
}
