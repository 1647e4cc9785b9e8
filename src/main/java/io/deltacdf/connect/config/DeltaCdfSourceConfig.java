package io.deltacdf.connect.config;

import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.EndSpec;
import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.change.StartSpec;
import io.deltacdf.connect.convert.ColumnMasks;
import io.deltacdf.connect.convert.RecordSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** The connector's settings, with typed getters. Each key's documentation sits next to it. */
public final class DeltaCdfSourceConfig extends AbstractConfig {

  public static final String TABLE_PATHS = "delta.table.paths";
  public static final String TABLE_ROOTS = "delta.tables.root";
  public static final String TABLES_INCLUDE = "delta.tables.include.list";
  public static final String TABLES_EXCLUDE = "delta.tables.exclude.list";
  public static final String TABLES_MAX_DEPTH = "delta.tables.max.depth";
  public static final String TABLES_RESCAN_INTERVAL_MS = "delta.tables.rescan.interval.ms";
  public static final String TOPIC_TEMPLATE = "topic.template";
  public static final String KEY_COLUMNS = "key.columns";
  public static final String KEY_COLUMNS_BY_TABLE = "key.columns.by.table";
  public static final String TABLE_SHARDS = "table.shards";
  public static final String START_MODE = "start.mode";
  public static final String START_VERSION = "start.version";
  public static final String START_TIMESTAMP = "start.timestamp";
  public static final String END_VERSION = "end.version";
  public static final String END_TIMESTAMP = "end.timestamp";
  public static final String POLL_INTERVAL_MS = "poll.interval.ms";
  public static final String BATCH_MAX_ROWS = "batch.max.rows";
  public static final String TRANSACTION_MAX_ROWS = "transaction.max.rows";
  public static final String MAX_ROWS_PER_SECOND = "max.rows.per.second";
  public static final String ON_HISTORY_MISSING = "on.history.missing";
  public static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
  public static final String HEARTBEAT_TOPIC = "heartbeat.topic";
  public static final String PROVIDE_TRANSACTION_METADATA = "provide.transaction.metadata";
  public static final String TRANSACTION_TOPIC = "topic.transaction";
  public static final String FILES_OUTSIDE_TABLE = "files.outside.table.allowed";
  public static final String RECORD_FORMAT = "record.format";
  public static final String CHANGE_TYPES = "change.types";
  public static final String METADATA_FIELDS = "record.metadata.fields";
  public static final String TOMBSTONES_ON_DELETE = "tombstones.on.delete";
  public static final String TEMPORAL_PRECISION = "temporal.precision.mode";
  public static final String FIELD_NAME_ADJUSTMENT = "field.name.adjustment";
  public static final String MAX_PENDING_IMAGES = "envelope.max.pending.images";
  public static final String OUTPUT_FORMAT = "output.format";
  public static final String RECORD_TIMESTAMP = "record.timestamp";
  public static final String UNKNOWN_KEYS = "config.unknown.keys";
  public static final String CHANGE_SOURCE = "change.source";
  public static final String DERIVED_DIFF_MEMORY_ROWS = "derived.diff.memory.rows";
  public static final String SNAPSHOT_MAX_TASKS = "snapshot.max.tasks";
  public static final String COLUMN_INCLUDE = "column.include.list";
  public static final String COLUMN_EXCLUDE = "column.exclude.list";
  public static final String COLUMN_MASK_HASH = "column.mask.hash.list";
  public static final String COLUMN_MASK_HASH_SALT = "column.mask.hash.salt";
  public static final String COLUMN_MASK_HASH_ENCODING = "column.mask.hash.encoding";
  public static final String COLUMN_MASK_TRUNCATE = "column.mask.truncate.list";
  public static final String COLUMN_MASK_TRUNCATE_CHARS = "column.mask.truncate.chars";
  public static final String COLUMN_MASK_NULL = "column.mask.null.list";
  public static final String ROW_FILTER = "row.filter";

  /** The largest snapshot.max.tasks: the connector looks up the offsets of every slice count. */
  public static final int SNAPSHOT_MAX_TASKS_LIMIT = 64;

  /** Settings with this prefix go, without it, to the Hadoop file systems (S3, ADLS, GCS). */
  public static final String HADOOP_PREFIX = "hadoop.";

  private static final String GROUP_TABLES = "Tables";
  private static final String GROUP_START = "Start position";
  private static final String GROUP_POLLING = "Polling and transactions";
  private static final String GROUP_RECORDS = "Records";
  private static final String GROUP_COLUMNS = "Columns and rows";
  private static final String GROUP_VALIDATION = "Validation";

  private static final ConfigDef CONFIG_DEF = buildConfigDef();

  private final DiscoveryPatterns discoveryPatterns;

  public DeltaCdfSourceConfig(Map<String, String> settings) {
    super(CONFIG_DEF, settings);
    discoveryPatterns = new DiscoveryPatterns(this);
  }

  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG_DEF);
  }

  private static ConfigDef buildConfigDef() {
    ConfigDef def = new ConfigDef();
    TableOptions.define(def, GROUP_TABLES);
    StartOptions.define(def, GROUP_START);
    PollingOptions.define(def, GROUP_POLLING);
    RecordOptions.define(def, GROUP_RECORDS);
    ColumnOptions.define(def, GROUP_COLUMNS);
    StorageSettings.define(def);
    UnityCatalogSettings.define(def);
    OperationsSettings.define(def);
    UnknownKeys.define(def, GROUP_VALIDATION);
    return def;
  }

  /** How records look, for a connector named {@code connectorName}. */
  public RecordSettings recordSettings(String connectorName, String connectorVersion) {
    return RecordOptions.settings(this, connectorName, connectorVersion);
  }

  public List<String> tablePaths() {
    return getList(TABLE_PATHS).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /** The tables named in Unity Catalog (unity.catalog.tables), as catalog.schema.table. */
  public List<String> catalogTables() {
    return UnityCatalogSettings.tables(this);
  }

  /** The tables named in the settings: paths first, then catalog names. */
  public List<String> namedTables() {
    List<String> named = new ArrayList<>(tablePaths());
    named.addAll(catalogTables());
    return named;
  }

  /** Whether {@code table} is one of unity.catalog.tables, read where the catalog says. */
  public boolean isCatalogTable(String table) {
    return catalogTables().contains(table);
  }

  /** How to reach the catalog of unity.catalog.tables. */
  public UnityCatalogConnection unityCatalog() {
    return UnityCatalogSettings.connection(this);
  }

  /** The setting that names {@code table}: where an error about the table itself belongs. */
  public String tableSettingFor(String table) {
    return isCatalogTable(table) ? UnityCatalogSettings.TABLES : TABLE_PATHS;
  }

  /** At most how many tasks read one table's initial snapshot, each a slice of its files. */
  public int snapshotMaxTasks() {
    return getInt(SNAPSHOT_MAX_TASKS);
  }

  /** The topic of {@code tablePath}, as topic.template names it. */
  public String topicFor(String tablePath) {
    return TopicNaming.topicFor(this, tablePath);
  }

  /** The folders whose tables are discovered (delta.tables.root). */
  public List<String> tableRoots() {
    return TableOptions.roots(this);
  }

  /** Whether a table found at {@code relativePath} below a root is streamed. */
  public boolean discovers(String relativePath) {
    return discoveryPatterns.discovers(relativePath);
  }

  /** How many folders below a root discovery descends (a table at the root itself is depth 0). */
  public int discoveryMaxDepth() {
    return getInt(TABLES_MAX_DEPTH);
  }

  public Duration rescanInterval() {
    return Duration.ofMillis(getLong(TABLES_RESCAN_INTERVAL_MS));
  }

  /** Whether {@code tablePath} is named in delta.table.paths or lies below a root. */
  public boolean isConfiguredTable(String tablePath) {
    return namedTables().contains(tablePath)
        || tableRoots().stream().anyMatch(root -> tablePath.startsWith(root + "/"));
  }

  /** Into how many shards by key each table's change stream is split (1: none). */
  public int tableShards() {
    return getInt(TABLE_SHARDS);
  }

  /** Why {@code table}, which has no key columns, cannot be sharded. */
  public static String unkeyedShards(String table) {
    return TableOptions.unkeyedShards(table);
  }

  public List<String> keyColumnsFor(String tablePath) {
    return TableOptions.keyColumns(this, tablePath);
  }

  /** The columns {@code tablePath}'s records carry; the others are not read. */
  public ColumnSelection columnsFor(String tablePath) {
    return ColumnOptions.selection(this, tablePath);
  }

  /** The masks of {@code tablePath}'s columns, new for each caller (they are not thread-safe). */
  public ColumnMasks columnMasksFor(String tablePath) {
    return ColumnOptions.masks(this, tablePath);
  }

  /** The partitions whose rows are read, for every table. */
  public RowFilter rowFilter() {
    return ColumnOptions.rowFilter(this);
  }

  public ChangeSource changeSource() {
    return EnumSettings.parse(ChangeSource.class, getString(CHANGE_SOURCE));
  }

  public int derivedDiffMemoryRows() {
    return getInt(DERIVED_DIFF_MEMORY_ROWS);
  }

  /** Where a table without stored offset starts: start.mode with its version or timestamp. */
  public StartSpec start() {
    return StartOptions.start(this);
  }

  /** Where a bounded run ends (end.version or end.timestamp); empty when the run is unbounded. */
  public Optional<EndSpec> end() {
    return StartOptions.end(this);
  }

  public Duration pollInterval() {
    return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
  }

  public int batchMaxRows() {
    return getInt(BATCH_MAX_ROWS);
  }

  public int transactionMaxRows() {
    return getInt(TRANSACTION_MAX_ROWS);
  }

  /** How many change records a task hands to Connect per second at most; 0 = no limit. */
  public int maxRowsPerSecond() {
    return getInt(MAX_ROWS_PER_SECOND);
  }

  /** How often heartbeats may be sent; zero when they are off. */
  public Duration heartbeatInterval() {
    return Duration.ofMillis(getLong(HEARTBEAT_INTERVAL_MS));
  }

  /** The heartbeat topic of the connector named {@code connectorName}. */
  public String heartbeatTopic(String connectorName) {
    return TopicNaming.heartbeatTopic(this, connectorName);
  }

  /** Whether BEGIN and END events frame each version's records, which carry its transaction. */
  public boolean provideTransactionMetadata() {
    return getBoolean(PROVIDE_TRANSACTION_METADATA);
  }

  /** The transaction metadata topic of the connector named {@code connectorName}. */
  public String transactionTopic(String connectorName) {
    return TopicNaming.transactionTopic(this, connectorName);
  }

  /** The signal consumer's client settings, or null when no signal channel is enabled. */
  public Map<String, Object> signalConsumer() {
    return OperationsSettings.signalConsumer(this);
  }

  /** The topic signals are read from (signal.kafka.topic). */
  public String signalTopic() {
    return getString(OperationsSettings.SIGNAL_TOPIC);
  }

  /** Where notifications go (notification.enabled.channels). */
  public Set<OperationsSettings.NotificationChannel> notificationChannels() {
    return OperationsSettings.notificationChannels(this);
  }

  /** The topic of the 'sink' notification channel (notification.sink.topic.name). */
  public String notificationTopic() {
    return getString(OperationsSettings.NOTIFICATION_TOPIC);
  }

  /** Whether to start over from a snapshot when the history to read next is gone. */
  public boolean resnapshotOnMissingHistory() {
    return EnumSettings.parse(OnHistoryMissing.class, getString(ON_HISTORY_MISSING))
        == OnHistoryMissing.RESNAPSHOT;
  }

  public boolean filesOutsideTableAllowed() {
    return getBoolean(FILES_OUTSIDE_TABLE);
  }

  /** The settings of the stores the tables are read from: file systems, endpoints, credentials. */
  public StoreView stores() {
    return new StoreView(this);
  }

  /**
   * Every secret value configured, so messages can be checked for leaks before they leave (see
   * {@link SecretValues}).
   */
  public List<String> secretValues() {
    return SecretValues.of(this, CONFIG_DEF);
  }

  /**
   * Problems that involve several settings, by the key they belong to: start options that do not
   * fit the start mode, column rules that do not fit the keys, and tables whose topics collide.
   */
  public Map<String, List<String>> crossFieldProblems() {
    Map<String, List<String>> problems = new LinkedHashMap<>();
    TableOptions.problems(this, problems);
    StartOptions.problems(this, problems);
    StorageSettings.crossFieldProblems(this, problems);
    UnityCatalogSettings.crossFieldProblems(this, problems);
    StoreEndpoints.crossFieldProblems(this, problems);
    RecordOptions.problems(this, problems);
    ColumnOptions.problems(this, problems);
    TopicNaming.problems(this, problems);
    OperationsSettings.problems(this, problems);
    return problems;
  }

  static void add(Map<String, List<String>> problems, String key, String message) {
    problems.computeIfAbsent(key, k -> new ArrayList<>()).add(message);
  }

  /** Checks what a constructor cannot: throws the first cross-field problem. */
  public void requireConsistent() {
    throwFirst(crossFieldProblems());
  }

  static void throwFirst(Map<String, List<String>> problems) {
    problems.entrySet().stream()
        .findFirst()
        .ifPresent(
            e -> {
              throw new ConfigException(e.getKey(), null, e.getValue().get(0));
            });
  }
}
