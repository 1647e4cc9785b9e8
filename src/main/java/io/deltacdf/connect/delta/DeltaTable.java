package io.deltacdf.connect.delta;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.EndSpec;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.HandOver;
import io.deltacdf.connect.change.LoggedSchema;
import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.change.SnapshotSlice;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.change.TableShard;
import io.deltacdf.connect.delta.catalog.CatalogCommits;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.log.DeltaLog;
import io.deltacdf.connect.delta.log.StartResolver;
import io.deltacdf.connect.delta.log.TableHistory;
import io.deltacdf.connect.delta.read.PartitionFilter;
import io.deltacdf.connect.delta.spill.DiffSpill;
import io.deltacdf.connect.delta.storage.TableFileIO;
import io.deltacdf.connect.delta.table.ChangeRules;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.ShardRule;
import io.deltacdf.connect.delta.table.TableAccess;
import io.deltacdf.connect.delta.table.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * A Delta table whose change data feed can be read: resolves where a feed starts and opens feeds.
 * This is where a table is opened. The rest of the connector may import the facade classes at the
 * root of {@code delta} (this one, {@link DeltaChangeFeed}, {@link DeltaFeedException} and the
 * others beside them) but none of its layers below; {@code ArchitectureTest} enforces it.
 */
public final class DeltaTable implements AutoCloseable {

  /** Snapshot files handed out per scan of the snapshot (see {@link SnapshotFiles}). */
  static final int DEFAULT_SNAPSHOT_WINDOW = 10_000;

  private final FeedContext context;
  private final TableHistory history;
  private final StartResolver starts;
  private final int snapshotWindow;
  private final TableFileIO fileIO;
  private final ChangeRules rules;

  private DeltaTable(
      FeedContext context, int snapshotWindow, TableFileIO fileIO, ChangeRules rules) {
    this.context = context;
    DeltaLog log = new DeltaLog(context);
    this.history = new TableHistory(context, log, rules);
    this.starts = new StartResolver(context, log, history);
    this.snapshotWindow = snapshotWindow;
    this.fileIO = fileIO;
    this.rules = rules;
  }

  /**
   * @param uri the table's root: a plain path or a {@code file:}, {@code s3a:}, {@code abfs(s):} or
   *     {@code gs:} URI
   * @param hadoopConfiguration file system settings passed to Hadoop
   * @param filesOutsideTableAllowed whether the log may reference files outside the table's folder
   *     (shallow clones do); otherwise such references fail
   */
  public static DeltaTable open(
      String uri, Map<String, String> hadoopConfiguration, boolean filesOutsideTableAllowed) {
    return open(
        uri, hadoopConfiguration, filesOutsideTableAllowed, Optional.empty(), Optional.empty());
  }

  /**
   * As {@link #open(String, Map, boolean)}, for a table opened through its catalog, which knows it
   * as {@code catalogTableId}; reading the commits {@code catalogCommits} holds too: a
   * catalog-managed table's newest commits, ratified by its catalog, not yet in its log folder.
   */
  static DeltaTable open(
      String uri,
      Map<String, String> hadoopConfiguration,
      boolean filesOutsideTableAllowed,
      Optional<CatalogCommits> catalogCommits,
      Optional<String> catalogTableId) {
    Configuration configuration = new Configuration();
    hadoopConfiguration.forEach(configuration::set);
    TableFileIO fileIO = new TableFileIO(configuration);
    Engine engine = DefaultEngine.create(fileIO);
    String root;
    try {
      root = engine.getFileSystemClient().resolvePath(uri);
    } catch (IOException | RuntimeException e) {
      closeQuietly(fileIO);
      throw KernelErrors.translate(uri, "its root path", e);
    }
    return new DeltaTable(
        new FeedContext(
            engine, uri, root, filesOutsideTableAllowed, fileIO, catalogCommits, catalogTableId),
        DEFAULT_SNAPSHOT_WINDOW,
        fileIO,
        ChangeRules.CDF_ONLY);
  }

  /**
   * The same table, handing out snapshot files in windows of {@code files}. Package-private and
   * only for tests: the connector always uses {@link #DEFAULT_SNAPSHOT_WINDOW}, and a test that
   * resumes across windows (ChangeFeedResumeTest) cannot write 10,000 files to get two. A setting
   * would be a knob no user needs; a constructor parameter the same seam, less visible.
   */
  DeltaTable withSnapshotWindow(int files) {
    return new DeltaTable(context, files, fileIO, rules);
  }

  /**
   * The same table, its changes read from {@code source}; {@code keyColumns} (possibly none) let
   * derived changes pair a delete and an insert of one key into an update.
   */
  public DeltaTable withChangeSource(ChangeSource source, List<String> keyColumns) {
    return new DeltaTable(
        context, snapshotWindow, fileIO, rules.withChangeSource(source, keyColumns));
  }

  /**
   * The same table, its rows carrying only the columns {@code columns} keeps: the others are not
   * read from the data files, and schemas leave them out.
   */
  public DeltaTable withColumns(ColumnSelection columns) {
    return new DeltaTable(context, snapshotWindow, fileIO, rules.withColumns(columns));
  }

  /**
   * The same table, its rows only those of the partitions {@code filter} passes: files of other
   * partitions are not read.
   */
  public DeltaTable withRowFilter(RowFilter filter) {
    return new DeltaTable(context, snapshotWindow, fileIO, rules.withRowFilter(filter));
  }

  /**
   * The same table, its rows also limited to the partitions {@code condition} passes (a signalled
   * snapshot's condition, on top of row.filter). Shares this table's file system connections: close
   * this one, not the narrowed one.
   */
  public DeltaTable narrowedTo(RowFilter condition) {
    RowFilter both =
        rules.rowFilter() instanceof RowFilter.All
            ? condition
            : new RowFilter.And(rules.rowFilter(), condition);
    return new DeltaTable(context, snapshotWindow, fileIO, rules.withRowFilter(both));
  }

  /**
   * The same table, its feeds keeping only the change rows of {@code shard}: those whose {@code
   * keyColumns} hash to it, and, taking over from {@code handOver} (null: nothing to take over),
   * only those its old partitions had not sent. The key columns are followed by their physical
   * names in {@code latest}, through renames.
   */
  public DeltaTable shardedBy(
      TableShard shard, List<String> keyColumns, LatestSnapshot latest, HandOver handOver) {
    if (shard.whole() && handOver == null) {
      return this;
    }
    FieldType.Struct schema = rules.schemaOf(TableMetadata.of(latest.get())).logical();
    return new DeltaTable(
        context,
        snapshotWindow,
        fileIO,
        rules.withShard(ShardRule.of(shard, keyColumns, schema, handOver)));
  }

  /**
   * Checks that the row filter fits the table's latest schema: it names partition columns only,
   * each compared with literals of its type.
   *
   * @throws DeltaFeedException of kind {@link DeltaFeedException.Kind#ROW_FILTER_MISFIT} if not
   */
  public void requireRowFilterFits(LatestSnapshot latest) {
    PartitionFilter.of(
        rules.rowFilter(), rules.schemaOf(TableMetadata.of(latest.get())), context.table());
  }

  /**
   * The same table, diffing up to {@code rows} candidate rows of a derived version on the heap;
   * larger rewrites spill to temp files.
   */
  public DeltaTable withDiffMemoryRows(int rows) {
    return new DeltaTable(context, snapshotWindow, fileIO, rules.withDiffMemoryRows(rows));
  }

  /**
   * The same table, its derived versions spilling into folders under {@code directory} instead of
   * {@code java.io.tmpdir}. Package-private and only for tests, which watch the folders appear and
   * go; the connector spills where the JVM keeps its temp files.
   */
  DeltaTable withDiffSpillDirectory(Path directory) {
    DiffSpill spill = new DiffSpill(rules.diffSpill().maxRecordsInMemory(), directory);
    return new DeltaTable(context, snapshotWindow, fileIO, rules.withDiffSpill(spill));
  }

  /**
   * The same table, planning commits of up to {@code files} file actions on the heap; larger ones
   * are read from the log file by file.
   */
  DeltaTable withPlanMemoryFiles(int files) {
    return new DeltaTable(context, snapshotWindow, fileIO, rules.withPlanMemoryFiles(files));
  }

  /** Closes the table's file system connections; feeds opened from it stop working. */
  @Override
  public void close() {
    closeQuietly(fileIO);
    context.catalogCommits().ifPresent(CatalogCommits::close);
  }

  /** Whether the table is catalog-managed as of its latest published version. */
  boolean catalogManaged() {
    return TableAccess.catalogManaged(context);
  }

  private static void closeQuietly(TableFileIO fileIO) {
    try {
      fileIO.close();
    } catch (IOException e) {
      // Closing only releases connections and threads: nothing to recover.
    }
  }

  /**
   * Which table this is as of {@code latest}: its Delta table id, and its catalog's id when it was
   * opened through a catalog.
   */
  public TableIdentity identity(LatestSnapshot latest) {
    return new TableIdentity(
        TableMetadata.of(latest.get()).id(), context.catalogTableId().orElse(null));
  }

  /**
   * Whether a position of the table {@code stored} names belongs to this table. The same table
   * keeps its log: its catalog id, and a Delta table id that this log holds, at its latest version
   * or at any version still logged (REPLACE TABLE writes a new Delta id into the same log). A table
   * deleted and created again, or dropped and re-created in its catalog, holds none of the old ids.
   * Reads the log's metadata actions only when the latest id differs.
   */
  public boolean holds(TableIdentity stored, LatestSnapshot latest) {
    TableIdentity current = identity(latest);
    if (stored.catalogTableId() != null
        && current.catalogTableId() != null
        && !stored.catalogTableId().equals(current.catalogTableId())) {
      return false;
    }
    if (stored.deltaTableId().equals(current.deltaTableId())) {
      return true;
    }
    return history.logsTableId(stored.deltaTableId(), latest.version());
  }

  /** A handle on the table's latest snapshot, loaded when first needed and then kept. */
  public LatestSnapshot latestSnapshot() {
    return new LatestSnapshot(context);
  }

  /**
   * The schema rows at {@code start} are read with and the latest one, oldest first; only the
   * latest when the start is at or after the latest version, or its history is gone (reading the
   * feed reports that in its own words). Cheap: two snapshots, no reading of the log between.
   */
  public List<LoggedSchema> schemasAtStartAndLatest(
      ChangePosition start, LatestSnapshot latestSnapshot) {
    Snapshot latest = latestSnapshot.get();
    if (start.version() >= latest.getVersion()) {
      return List.of(schemaOf(latest));
    }
    try {
      return List.of(schemaOf(TableAccess.snapshotAt(context, start.version())), schemaOf(latest));
    } catch (DeltaFeedException e) {
      if (e.kind() != DeltaFeedException.Kind.HISTORY_MISSING) {
        throw e;
      }
      return List.of(schemaOf(latest));
    }
  }

  /**
   * Every schema the log still holds, oldest first: the one at the oldest version that can be
   * rebuilt and each one a later commit set. Reads the whole log.
   */
  public List<LoggedSchema> loggedSchemas() {
    long latestVersion = history.latestVersion();
    Snapshot oldest = history.oldestSnapshot(latestVersion);
    List<LoggedSchema> schemas = new ArrayList<>();
    schemas.add(schemaOf(oldest));
    if (oldest.getVersion() < latestVersion) {
      history.forEachMetadata(
          oldest.getVersion() + 1,
          latestVersion,
          (version, metadata) ->
              schemas.add(
                  new LoggedSchema(
                      version, TableSchema.logicalOf(metadata.schema(), rules.columns()))));
    }
    return schemas;
  }

  private LoggedSchema schemaOf(Snapshot snapshot) {
    return new LoggedSchema(
        snapshot.getVersion(), TableSchema.logicalOf(snapshot.getSchema(), rules.columns()));
  }

  /** Opens a feed that yields every change after {@code position}. */
  public DeltaChangeFeed openFeed(ChangePosition position) {
    return openFeed(position, SnapshotSlice.WHOLE);
  }

  /**
   * As {@link #openFeed(ChangePosition, SnapshotSlice)}, reading no version after {@code
   * lastVersion}: once past it, the feed has caught up for good (see {@link
   * DeltaChangeFeed#ended}).
   */
  public DeltaChangeFeed openFeed(ChangePosition position, SnapshotSlice slice, long lastVersion) {
    return new DeltaChangeFeed(context, position, slice, snapshotWindow, rules, lastVersion);
  }

  /**
   * Opens a feed of {@code slice} of the snapshot {@code position} is in, from there to the
   * snapshot's end; with the whole snapshot, or a position after it, every change after it.
   */
  public DeltaChangeFeed openFeed(ChangePosition position, SnapshotSlice slice) {
    return openFeed(position, slice, Long.MAX_VALUE);
  }

  /**
   * Checks a position Connect stored for this table, which an operator may have altered through the
   * REST API, before a feed resumes there. A version after the latest + 1 (the next commit) fails
   * as {@link DeltaFeedException.Kind#INVALID_START}, never as missing history, so that it is never
   * answered with a re-snapshot; a version whose history was cleaned up fails as {@link
   * DeltaFeedException.Kind#HISTORY_MISSING}. Both messages name the table and the stored version.
   * Loads {@code latest} only when a listing alone cannot tell.
   */
  public void checkStored(ChangePosition stored, LatestSnapshot latest) {
    starts.checkStored(stored, latest::get);
  }

  /**
   * Where a feed started with {@code start} begins, after checking that the change data feed can be
   * read from there.
   */
  public ChangePosition resolveStart(StartSpec start) {
    return resolveStart(start, latestSnapshot());
  }

  /**
   * The last version a bounded run ending at {@code end} reads (see {@link
   * StartResolver#resolveEnd}).
   */
  public long resolveEnd(EndSpec end, LatestSnapshot latest) {
    return starts.resolveEnd(end, latest::get, System::currentTimeMillis);
  }

  /** {@link #resolveStart(StartSpec)} from {@code latest}, already loaded or not. */
  public ChangePosition resolveStart(StartSpec start, LatestSnapshot latest) {
    return starts.resolveStart(start, latest::get);
  }
}
