package io.deltacdf.connect.delta.table;

import io.delta.kernel.Snapshot;
import io.delta.kernel.SnapshotBuilder;
import io.delta.kernel.TableManager;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.exceptions.UnsupportedProtocolVersionException;
import io.delta.kernel.exceptions.UnsupportedTableFeatureException;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.TableProtocol;
import java.util.Optional;
import java.util.OptionalLong;

/** Loads snapshots and checks table-level preconditions, with errors that say what to do. */
public final class TableAccess {

  private static final String ENABLE_STATEMENT =
      "ALTER TABLE ... SET TBLPROPERTIES ('" + TableSchema.CDF_PROPERTY + "'='true')";

  private TableAccess() {}

  public static Snapshot latestSnapshot(FeedContext context) {
    Snapshot snapshot;
    try {
      snapshot = load(context, Optional.empty());
    } catch (RuntimeException e) {
      if (refusedWithoutCatalog(e)) {
        throw catalogManaged(context.table(), "its latest version");
      }
      throw KernelErrors.translate(context.table(), "its latest version", e);
    }
    return requireReadableByPath(context, snapshot);
  }

  /**
   * Whether the table's latest version, as its {@code _delta_log} shows it, is catalog-managed:
   * then it can only be read with its catalog's ratified commits.
   */
  public static boolean catalogManaged(FeedContext context) {
    try {
      return TableProtocol.catalogManaged(
          TableManager.loadSnapshot(context.tableRoot()).build(context.engine()));
    } catch (RuntimeException e) {
      if (refusedWithoutCatalog(e)) {
        return true;
      }
      throw KernelErrors.translate(context.table(), "its latest version", e);
    }
  }

  /** Kernel refuses to load a catalog-managed table's snapshot without its catalog's version. */
  private static boolean refusedWithoutCatalog(Throwable error) {
    return error instanceof IllegalArgumentException
        && String.valueOf(error.getMessage()).contains("maxCatalogVersion for catalogManaged");
  }

  /** The snapshot at {@code version} or the latest, with the catalog's commits when it has any. */
  private static Snapshot load(FeedContext context, Optional<Long> version) {
    if (context.catalogCommits().isPresent()) {
      return context
          .catalogCommits()
          .get()
          .snapshot(context.engine(), context.tableRoot(), version);
    }
    SnapshotBuilder builder = TableManager.loadSnapshot(context.tableRoot());
    return version.map(builder::atVersion).orElse(builder).build(context.engine());
  }

  /**
   * Fails for a catalog-managed table: read by path, its newest commits, which only its catalog
   * holds until they are published, would be skipped without a word.
   */
  private static Snapshot requireReadableByPath(FeedContext context, Snapshot snapshot) {
    if (context.catalogCommits().isEmpty() && TableProtocol.catalogManaged(snapshot)) {
      throw catalogManaged(context.table(), "version " + snapshot.getVersion());
    }
    return snapshot;
  }

  /** The error for a table that is catalog-managed at {@code version}. */
  public static DeltaFeedException catalogManaged(String table, String where) {
    return new DeltaFeedException(
        DeltaFeedException.Kind.UNSUPPORTED_TABLE,
        "Table "
            + table
            + " is catalog-managed (reader feature catalogManaged) at "
            + where
            + ": its newest commits are kept by its catalog before they reach _delta_log, and"
            + " reading it by path would miss them. Name it in unity.catalog.tables to read it"
            + " through its catalog (docs/databricks.md)");
  }

  /**
   * The snapshot of {@code version}. Kernel reports a cleaned-up history, a version that does not
   * exist yet and other log problems alike as plain KernelExceptions: a version after the latest is
   * told apart by looking at the latest, and unsupported features keep their own kind, so that only
   * a history that is really gone counts as missing (and may lead to a re-snapshot).
   */
  public static Snapshot snapshotAt(FeedContext context, long version) {
    try {
      return requireReadableByPath(context, load(context, Optional.of(version)));
    } catch (DeltaFeedException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      if (refusedWithoutCatalog(e)) {
        throw catalogManaged(context.table(), "version " + version);
      }
      throw KernelErrors.translate(context.table(), "version " + version, e);
    } catch (UnsupportedTableFeatureException
        | UnsupportedProtocolVersionException
        | TableNotFoundException e) {
      throw KernelErrors.translate(context.table(), "version " + version, e);
    } catch (KernelException e) {
      long latest = latestSnapshot(context).getVersion();
      if (version > latest) {
        throw new DeltaFeedException(
            DeltaFeedException.Kind.INVALID_START,
            "Table "
                + context.table()
                + " has no version "
                + version
                + ": its latest version is "
                + latest,
            e);
      }
      throw new DeltaFeedException(
          DeltaFeedException.Kind.HISTORY_MISSING,
          "Table "
              + context.table()
              + " cannot be read at version "
              + version
              + ": "
              + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      throw KernelErrors.translate(context.table(), "version " + version, e);
    }
  }

  public static void requireChangeDataFeed(FeedContext context, TableSchema schema, long version) {
    if (!schema.changeDataFeedEnabled()) {
      throw changeDataFeedDisabled(context, version, OptionalLong.empty());
    }
  }

  /**
   * As {@link #requireChangeDataFeed}, for a snapshot at {@code version}: the changes after it are
   * read from the feed, so it must be on there.
   */
  public static void requireChangeDataFeedForSnapshot(
      FeedContext context, TableSchema schema, long version) {
    if (!schema.changeDataFeedEnabled()) {
      throw changeDataFeedDisabledAtSnapshot(context, version);
    }
  }

  /**
   * The error for a version without a readable change data feed, with the ways out.
   *
   * @param enabledFrom the first later version from which the feed stays enabled, when known
   */
  public static DeltaFeedException changeDataFeedDisabled(
      FeedContext context, long version, OptionalLong enabledFrom) {
    String way =
        enabledFrom.isPresent()
            ? "It is enabled from version "
                + enabledFrom.getAsLong()
                + " on: start at version "
                + enabledFrom.getAsLong()
                + " or later"
            : "Enable it with "
                + ENABLE_STATEMENT
                + " and start at a version after that, or from a snapshot taken once it is on";
    return new DeltaFeedException(
        DeltaFeedException.Kind.CDF_DISABLED,
        notEnabled(context, version)
            + "so its changes cannot be read from there. "
            + way
            + ". Or set "
            + ChangeRules.SETTING
            + "=derived or auto to derive the changes of versions without it from their data"
            + " files");
  }

  /**
   * The error for a snapshot at a version without the change data feed: the user already starts
   * from a snapshot, so the ways out are deriving the changes or enabling the feed.
   */
  public static DeltaFeedException changeDataFeedDisabledAtSnapshot(
      FeedContext context, long version) {
    return new DeltaFeedException(
        DeltaFeedException.Kind.CDF_DISABLED,
        notEnabled(context, version)
            + "so the changes after a snapshot of that version cannot be read from the feed. Set "
            + ChangeRules.SETTING
            + "=derived (every version's changes derived from its data files) or "
            + ChangeRules.SETTING
            + "=auto (the change data feed where it is on, derived changes elsewhere); or enable"
            + " the feed with "
            + ENABLE_STATEMENT
            + " and restart: the snapshot is then taken at a version where it is on");
  }

  private static String notEnabled(FeedContext context, long version) {
    return "The change data feed of table "
        + context.table()
        + " is not enabled at version "
        + version
        + " ("
        + TableSchema.CDF_PROPERTY
        + " is not true), ";
  }
}
