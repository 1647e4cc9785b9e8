package io.deltacdf.connect.config;

import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.convert.FieldNameAdjustment;
import io.deltacdf.connect.convert.OutputFormat;
import io.deltacdf.connect.convert.RecordFormat;
import io.deltacdf.connect.convert.RecordSettings;
import io.deltacdf.connect.convert.TemporalPrecision;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/** The connector's settings, with typed getters. Each key's documentation sits next to it. */
public final class DeltaCdfSourceConfig extends AbstractConfig {

  public static final String TABLE_PATHS = "delta.table.paths";
  public static final String TOPIC_TEMPLATE = "topic.template";
  public static final String KEY_COLUMNS = "key.columns";
  public static final String KEY_COLUMNS_BY_TABLE = "key.columns.by.table";
  public static final String START_MODE = "start.mode";
  public static final String START_VERSION = "start.version";
  public static final String START_TIMESTAMP = "start.timestamp";
  public static final String POLL_INTERVAL_MS = "poll.interval.ms";
  public static final String BATCH_MAX_ROWS = "batch.max.rows";
  public static final String TRANSACTION_MAX_ROWS = "transaction.max.rows";
  public static final String ON_HISTORY_MISSING = "on.history.missing";
  public static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
  public static final String HEARTBEAT_TOPIC = "heartbeat.topic";
  public static final String CONNECTOR_PLACEHOLDER = "${connector}";
  public static final String FILES_OUTSIDE_TABLE = "files.outside.table.allowed";
  public static final String RECORD_FORMAT = "record.format";
  public static final String CHANGE_TYPES = "change.types";
  public static final String METADATA_FIELDS = "record.metadata.fields";
  public static final String TOMBSTONES_ON_DELETE = "tombstones.on.delete";
  public static final String TEMPORAL_PRECISION = "temporal.precision.mode";
  public static final String FIELD_NAME_ADJUSTMENT = "field.name.adjustment";
  public static final String MAX_PENDING_IMAGES = "envelope.max.pending.images";
  public static final String OUTPUT_FORMAT = "output.format";
  public static final String UNKNOWN_KEYS = "config.unknown.keys";
  public static final String CHANGE_SOURCE = "change.source";

  /** Settings with this prefix go, without it, to the Hadoop file systems (S3, ADLS, GCS). */
  public static final String HADOOP_PREFIX = "hadoop.";

  /** Task-only: the tables one task reads; set by the connector, never by users. */
  public static final String TASK_TABLES = "task.tables";

  public static final String TABLE_PLACEHOLDER = "${table}";

  private static final String GROUP_TABLES = "Tables";
  private static final String GROUP_START = "Start position";
  private static final String GROUP_POLLING = "Polling and transactions";
  private static final String GROUP_RECORDS = "Records";
  private static final String GROUP_VALIDATION = "Validation";

  private static final List<String> ALL_CHANGE_TYPES =
      ChangeType.STANDARD.stream().map(ChangeType::label).toList();

  private static final ConfigDef CONFIG_DEF = buildConfigDef();

  public DeltaCdfSourceConfig(Map<String, String> settings) {
    super(CONFIG_DEF, settings);
  }

  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG_DEF);
  }

  private static ConfigDef buildConfigDef() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        TABLE_PATHS,
        Type.LIST,
        ConfigDef.NO_DEFAULT_VALUE,
        Validators.nonEmptyList(),
        Importance.HIGH,
        "Comma-separated Delta table URIs whose change data feed to stream: plain paths, file:,"
            + " s3a:, abfs:, abfss: or gs: URIs. Each table needs"
            + " delta.enableChangeDataFeed=true.",
        GROUP_TABLES,
        ++order,
        Width.LONG,
        "Delta table paths");
    def.define(
        TOPIC_TEMPLATE,
        Type.STRING,
        TABLE_PLACEHOLDER,
        Validators.topicTemplate(TABLE_PLACEHOLDER),
        Importance.HIGH,
        "The topic each table's changes go to. ${table} stands for the last segment of the"
            + " table's path, so the default sends s3a://bucket/lake/orders to topic 'orders'."
            + " Two tables may not share a topic.",
        GROUP_TABLES,
        ++order,
        Width.MEDIUM,
        "Topic template");
    def.define(
        KEY_COLUMNS,
        Type.LIST,
        "",
        Importance.MEDIUM,
        "Comma-separated columns that form each record's key (a struct of these columns)."
            + " Empty: records have a null key. Records of one key keep their commit order.",
        GROUP_TABLES,
        ++order,
        Width.MEDIUM,
        "Key columns");
    def.define(
        KEY_COLUMNS_BY_TABLE,
        Type.STRING,
        "",
        Validators.keyColumnsByTable(),
        Importance.MEDIUM,
        "Per-table key columns that override key.columns, as table:col1,col2;table2:col."
            + " 'table' is the last segment of the table's path.",
        GROUP_TABLES,
        ++order,
        Width.LONG,
        "Key columns by table");
    order = 0;
    def.define(
        START_MODE,
        Type.STRING,
        EnumSettings.valueOf(StartMode.SNAPSHOT),
        Validators.oneOf(StartMode.class),
        Importance.HIGH,
        "Where a table's feed starts when the connector has no stored offset for it (a stored"
            + " offset always wins): snapshot = the current table as inserts, then every change;"
            + " earliest = the oldest version whose changes can still be read; latest = only"
            + " changes committed from now on; version = from start.version; timestamp = from"
            + " the first version committed at or after start.timestamp.",
        GROUP_START,
        ++order,
        Width.SHORT,
        "Start mode",
        new EnumRecommender(StartMode.class));
    def.define(
        START_VERSION,
        Type.LONG,
        null,
        Validators.nonNegativeOrNull(),
        Importance.MEDIUM,
        "The first commit version to read with start.mode=version.",
        GROUP_START,
        ++order,
        Width.SHORT,
        "Start version");
    def.define(
        START_TIMESTAMP,
        Type.STRING,
        null,
        Validators.timestamp(),
        Importance.MEDIUM,
        "With start.mode=timestamp: an ISO-8601 instant (2024-05-01T12:00:00Z), a UTC date-time"
            + " (2024-05-01T12:00:00), a UTC date (2024-05-01) or epoch milliseconds.",
        GROUP_START,
        ++order,
        Width.MEDIUM,
        "Start timestamp");
    order = 0;
    def.define(
        POLL_INTERVAL_MS,
        Type.LONG,
        1000L,
        ConfigDef.Range.atLeast(1),
        Importance.MEDIUM,
        "How often a table that has caught up is checked for new commits. A check that finds none"
            + " costs two file-status requests, however long the table's history is.",
        GROUP_POLLING,
        ++order,
        Width.SHORT,
        "Poll interval (ms)");
    def.define(
        BATCH_MAX_ROWS,
        Type.INT,
        10_000,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        "The most records one poll returns to the Connect worker.",
        GROUP_POLLING,
        ++order,
        Width.SHORT,
        "Batch size (rows)");
    def.define(
        TRANSACTION_MAX_ROWS,
        Type.INT,
        1_000_000,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        "With exactly-once support and transaction.boundary=connector, each commit version is"
            + " one Kafka transaction; a version with more rows than this is split into several"
            + " transactions at row boundaries.",
        GROUP_POLLING,
        ++order,
        Width.SHORT,
        "Transaction size bound (rows)");
    def.define(
        HEARTBEAT_INTERVAL_MS,
        Type.LONG,
        30_000L,
        ConfigDef.Range.atLeast(0),
        Importance.MEDIUM,
        "How often a table whose position moved without a record (rows filtered out by"
            + " change.types, versions without change rows, a start.mode=latest start) sends a"
            + " heartbeat record to heartbeat.topic, so that Connect stores that position and a"
            + " restart does not read those versions again or lose the start. A table that has"
            + " no stored offset sends one at once. Heartbeats are sent only when the position"
            + " moved; 0 turns them off.",
        GROUP_POLLING,
        ++order,
        Width.SHORT,
        "Heartbeat interval (ms)");
    def.define(
        HEARTBEAT_TOPIC,
        Type.STRING,
        "__delta-cdf-heartbeat." + CONNECTOR_PLACEHOLDER,
        Validators.topicTemplate(CONNECTOR_PLACEHOLDER),
        Importance.LOW,
        "The topic heartbeat records go to; " + CONNECTOR_PLACEHOLDER + " is replaced by the"
            + " connector's name (characters a topic name cannot hold become '_'). Key: struct"
            + " {table}; value: struct {table, version, ts_ms}, where version is the commit"
            + " version the table's reading continues at.",
        GROUP_POLLING,
        ++order,
        Width.MEDIUM,
        "Heartbeat topic");
    def.define(
        ON_HISTORY_MISSING,
        Type.STRING,
        EnumSettings.valueOf(OnHistoryMissing.FAIL),
        Validators.oneOf(OnHistoryMissing.class),
        Importance.MEDIUM,
        "What a task does when the changes it must read next are gone: log files cleaned up or"
            + " data files removed by VACUUM after the connector fell behind, or the table"
            + " deleted, recreated or replaced. fail = stop with an error that names the table,"
            + " the version and the ways out (nothing is skipped silently); resnapshot = log a"
            + " warning and start over from a snapshot of the table's latest version, followed"
            + " by its live changes.",
        GROUP_START,
        4,
        Width.SHORT,
        "When history is missing");
    def.define(
        CHANGE_SOURCE,
        Type.STRING,
        EnumSettings.valueOf(ChangeSource.CDF),
        Validators.oneOf(ChangeSource.class),
        Importance.MEDIUM,
        "Where change rows come from. cdf = the table's Change Data Feed (a version without it"
            + " is an error); derived = derived from the data files each version removed and"
            + " added, for tables without Change Data Feed (an update that leaves a row identical"
            + " is invisible, without key columns an update is a delete plus an insert, and a"
            + " rewrite costs reading the rewritten files twice); auto = the Change Data Feed for"
            + " versions where it was enabled, derived changes before that or where it was off.",
        GROUP_START,
        5,
        Width.SHORT,
        "Change source");
    def.define(
        FILES_OUTSIDE_TABLE,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "Whether the table's log may point at files outside the table's folder (absolute paths"
            + " or '..' segments). Shallow clones legitimately do; otherwise such an entry is"
            + " refused, so a crafted log cannot make the connector read other files.",
        GROUP_TABLES,
        5,
        Width.SHORT,
        "Allow files outside the table");
    StoreEndpoints.define(def, GROUP_TABLES, 6);
    defineRecordSettings(def);
    StorageSettings.define(def);
    def.define(
        UNKNOWN_KEYS,
        Type.STRING,
        EnumSettings.valueOf(UnknownKeys.Policy.FAIL),
        Validators.oneOf(UnknownKeys.Policy.class),
        Importance.LOW,
        "What validation does with a setting that neither this connector nor Connect reads"
            + " (a typo such as start.mod, or another connector's key such as"
            + " time.precision.mode): fail = report it as an error on that key, with the closest"
            + " known key as a suggestion, so the connector is not created; ignore = accept it."
            + " Connect's own keys (converters, transforms.*, predicates.*, errors.*,"
            + " topic.creation.*, producer.override.*, exactly.once.support, ...) and hadoop.*"
            + " are always known.",
        GROUP_VALIDATION,
        1,
        Width.SHORT,
        "Unknown settings");
    def.defineInternal(TASK_TABLES, Type.LIST, "", Importance.HIGH);
    return def;
  }

  private static void defineRecordSettings(ConfigDef def) {
    int order = 0;
    def.define(
        RECORD_FORMAT,
        Type.STRING,
        EnumSettings.valueOf(RecordFormat.ROW),
        Validators.oneOf(RecordFormat.class),
        Importance.HIGH,
        "The record value. row = the changed row, with _change_type, _commit_version and"
            + " _commit_timestamp as headers; envelope = a Debezium change event (before, after,"
            + " op c/u/d/r, ts_ms, source) where an update's pre- and post-image become one 'u'"
            + " event, paired by key (needs key columns for every table).",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Record format");
    def.define(
        CHANGE_TYPES,
        Type.LIST,
        String.join(",", ALL_CHANGE_TYPES),
        Validators.subsetOf(ALL_CHANGE_TYPES),
        Importance.MEDIUM,
        "The change types that become records, e.g. insert,update_postimage,delete to drop"
            + " pre-images, or insert for an append-only stream. Filtered rows still advance the"
            + " stored position. With record.format=envelope, 'u' events need update_postimage,"
            + " and their 'before' is filled only with update_preimage. Rows whose _change_type"
            + " is none of these four (some writers use other values) always pass in"
            + " record.format=row, and fail the task in record.format=envelope.",
        GROUP_RECORDS,
        ++order,
        Width.LONG,
        "Change types");
    def.define(
        METADATA_FIELDS,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "With record.format=row: also put _change_type, _commit_version and _commit_timestamp"
            + " in the value, after the table's columns, for sinks that cannot see headers (e.g."
            + " an audit table through the JDBC sink).",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Metadata in the value");
    def.define(
        TOMBSTONES_ON_DELETE,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        "Whether each delete of a keyed table is followed by a tombstone (the same key, a null"
            + " value), so compacted topics and JDBC/Elasticsearch sinks remove the row. The"
            + " delete's position is stored only with its tombstone. Key-less tables never get"
            + " tombstones.",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Tombstones on delete");
    def.define(
        TEMPORAL_PRECISION,
        Type.STRING,
        EnumSettings.valueOf(TemporalPrecision.MILLISECONDS),
        Validators.oneOf(TemporalPrecision.class),
        Importance.MEDIUM,
        "How timestamp and timestamp_ntz columns are written. milliseconds = Connect Timestamp"
            + " (every sink knows it; Delta's microseconds are truncated); microseconds = int64"
            + " epoch microseconds named io.debezium.time.MicroTimestamp, lossless.",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Timestamp precision");
    def.define(
        FIELD_NAME_ADJUSTMENT,
        Type.STRING,
        EnumSettings.valueOf(FieldNameAdjustment.NONE),
        Validators.oneOf(FieldNameAdjustment.class),
        Importance.MEDIUM,
        "none = field names are the column names; avro = characters outside [A-Za-z0-9_]"
            + " become '_' and a leading digit gets a '_' prefix, so Avro converters accept"
            + " names that column mapping allows (spaces, dots, dashes, unicode). Two columns"
            + " that would get the same name are an error.",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Field name adjustment");
    def.define(
        MAX_PENDING_IMAGES,
        Type.INT,
        100_000,
        ConfigDef.Range.atLeast(1),
        Importance.LOW,
        "With record.format=envelope: the most update images held while they wait for their"
            + " partner image. Delta writes the two images of an update side by side, so few"
            + " wait; but a version whose changes are derived (change.source=derived or auto)"
            + " and that rewrites files lists all its pre-images first, so up to one image per"
            + " updated row of the version waits. Beyond this bound the task stops with an error"
            + " rather than use unbounded memory.",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Pending update images");
    def.define(
        OUTPUT_FORMAT,
        Type.STRING,
        EnumSettings.valueOf(OutputFormat.STRUCT),
        Validators.oneOf(OutputFormat.class),
        Importance.MEDIUM,
        "struct = keys and values are Connect structs with schemas, for any converter (JSON,"
            + " Avro, Protobuf); json = keys and values are JSON text, written straight from the"
            + " table's values, for key.converter and value.converter"
            + " org.apache.kafka.connect.storage.StringConverter: the same bytes as JsonConverter"
            + " with schemas.enable=false and decimal.format=NUMERIC, at less cost. Works with"
            + " both record formats, tombstones, heartbeats and exactly-once; other converters"
            + " would see strings, not structs.",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Output format");
  }

  /** How records look, for a connector named {@code connectorName}. */
  public RecordSettings recordSettings(String connectorName, String connectorVersion) {
    Set<ChangeType> changeTypes = EnumSet.noneOf(ChangeType.class);
    for (String type : getList(CHANGE_TYPES)) {
      if (!type.isBlank()) {
        changeTypes.add(ChangeType.fromLabel(type.trim().toLowerCase(Locale.ROOT)));
      }
    }
    return new RecordSettings(
        EnumSettings.parse(RecordFormat.class, getString(RECORD_FORMAT)),
        changeTypes,
        getBoolean(METADATA_FIELDS),
        getBoolean(TOMBSTONES_ON_DELETE),
        EnumSettings.parse(TemporalPrecision.class, getString(TEMPORAL_PRECISION)),
        EnumSettings.parse(FieldNameAdjustment.class, getString(FIELD_NAME_ADJUSTMENT)),
        getInt(MAX_PENDING_IMAGES),
        connectorName,
        connectorVersion,
        EnumSettings.parse(OutputFormat.class, getString(OUTPUT_FORMAT)));
  }

  public List<String> tablePaths() {
    return getList(TABLE_PATHS).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  public List<String> taskTables() {
    return getList(TASK_TABLES);
  }

  public String topicFor(String tablePath) {
    return getString(TOPIC_TEMPLATE).replace(TABLE_PLACEHOLDER, TableNames.nameOf(tablePath));
  }

  public List<String> keyColumnsFor(String tablePath) {
    List<String> override =
        Validators.parseKeyColumnsByTable(getString(KEY_COLUMNS_BY_TABLE))
            .get(TableNames.nameOf(tablePath));
    if (override != null) {
      return override;
    }
    return getList(KEY_COLUMNS).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  public ChangeSource changeSource() {
    return EnumSettings.parse(ChangeSource.class, getString(CHANGE_SOURCE));
  }

  public StartMode startMode() {
    return EnumSettings.parse(StartMode.class, getString(START_MODE));
  }

  public OptionalLong startVersion() {
    Long version = getLong(START_VERSION);
    return version == null ? OptionalLong.empty() : OptionalLong.of(version);
  }

  public Optional<Instant> startTimestamp() {
    String value = getString(START_TIMESTAMP);
    return value == null || value.isBlank()
        ? Optional.empty()
        : Optional.of(Validators.parseTimestamp(value));
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

  /** How often heartbeats may be sent; zero when they are off. */
  public Duration heartbeatInterval() {
    return Duration.ofMillis(getLong(HEARTBEAT_INTERVAL_MS));
  }

  /** The heartbeat topic of the connector named {@code connectorName}. */
  public String heartbeatTopic(String connectorName) {
    return getString(HEARTBEAT_TOPIC)
        .replace(CONNECTOR_PLACEHOLDER, connectorName.replaceAll("[^a-zA-Z0-9._-]", "_"));
  }

  /** Whether to start over from a snapshot when the history to read next is gone. */
  public boolean resnapshotOnMissingHistory() {
    return EnumSettings.parse(OnHistoryMissing.class, getString(ON_HISTORY_MISSING))
        == OnHistoryMissing.RESNAPSHOT;
  }

  public boolean filesOutsideTableAllowed() {
    return getBoolean(FILES_OUTSIDE_TABLE);
  }

  /**
   * The Hadoop file system settings: those the s3.*, azure.* and gcs.* settings stand for, then
   * every {@code hadoop.*} key without the prefix (which wins, as the more specific setting).
   */
  public Map<String, String> hadoopSettings() {
    Map<String, String> settings = new HashMap<>(StorageSettings.hadoopSettings(this));
    originalsWithPrefix(HADOOP_PREFIX).forEach((k, v) -> settings.put(k, String.valueOf(v)));
    return settings;
  }

  /**
   * The setting that holds the credential for the store of {@code tablePath} (e.g.
   * s3.secret.access.key), or null for local tables: where an access-denied error belongs.
   */
  public String credentialSettingFor(String tablePath) {
    return StorageSettings.credentialSettingFor(this, tablePath);
  }

  /** Where requests for the table go, for the log: e.g. https://minio.internal:9000. */
  public String endpointOf(String tablePath) {
    return StoreEndpoints.endpointOf(tablePath, hadoopSettings());
  }

  /**
   * Fails when a store would be reached over plain HTTP without {@code
   * storage.insecure.http.allowed}: checked where the tables are read, too, since a task may run
   * with a configuration that was never validated.
   */
  public void requireTlsToStores() {
    Map<String, List<String>> problems = new LinkedHashMap<>();
    StoreEndpoints.crossFieldProblems(this, problems);
    throwFirst(problems);
  }

  /** The endpoint setting of the table's store, when set (where connection errors belong). */
  public String endpointSettingFor(String tablePath) {
    return StorageSettings.endpointSettingFor(this, tablePath);
  }

  /**
   * Every secret value configured, so messages can be checked for leaks before they leave: the
   * PASSWORD settings, and hadoop.* pass-through settings whose name marks them as secret.
   */
  public List<String> secretValues() {
    List<String> secrets = new ArrayList<>();
    for (Map.Entry<String, ConfigDef.ConfigKey> key : CONFIG_DEF.configKeys().entrySet()) {
      if (key.getValue().type == Type.PASSWORD && getPassword(key.getKey()) != null) {
        secrets.add(getPassword(key.getKey()).value());
      }
    }
    originalsWithPrefix(HADOOP_PREFIX)
        .forEach(
            (key, value) -> {
              if (SECRET_HADOOP_KEY.matcher(key).find() && value != null) {
                secrets.add(String.valueOf(value));
              }
            });
    return secrets;
  }

  private static final java.util.regex.Pattern SECRET_HADOOP_KEY =
      java.util.regex.Pattern.compile(
          "(?i)(secret|password|token|credential|\\.key(\\.|$)|account\\.key|sas)");

  /**
   * Problems that involve several settings, by the key they belong to: start options that do
   * not fit the start mode, and tables whose topics collide.
   */
  public Map<String, List<String>> crossFieldProblems() {
    Map<String, List<String>> problems = new LinkedHashMap<>();
    StartMode mode = startMode();
    if (mode == StartMode.VERSION && startVersion().isEmpty()) {
      add(problems, START_VERSION, "start.mode=version needs start.version (a commit version)");
    }
    if (mode == StartMode.TIMESTAMP && startTimestamp().isEmpty()) {
      add(problems, START_TIMESTAMP, "start.mode=timestamp needs start.timestamp");
    }
    if (mode != StartMode.VERSION && startVersion().isPresent()) {
      add(
          problems,
          START_VERSION,
          "start.version is only used with start.mode=version, but start.mode is "
              + EnumSettings.valueOf(mode)
              + ": remove start.version or set start.mode=version");
    }
    if (mode != StartMode.TIMESTAMP && startTimestamp().isPresent()) {
      add(
          problems,
          START_TIMESTAMP,
          "start.timestamp is only used with start.mode=timestamp, but start.mode is "
              + EnumSettings.valueOf(mode)
              + ": remove start.timestamp or set start.mode=timestamp");
    }
    StorageSettings.crossFieldProblems(this, problems);
    StoreEndpoints.crossFieldProblems(this, problems);
    recordProblems(problems);
    Map<String, String> tableByTopic = new HashMap<>();
    for (String table : tablePaths()) {
      String previous = tableByTopic.putIfAbsent(topicFor(table), table);
      if (previous != null) {
        add(
            problems,
            TOPIC_TEMPLATE,
            "Tables "
                + previous
                + " and "
                + table
                + " would both write to topic '"
                + topicFor(table)
                + "': tables must have distinct last path segments, or use a topic.template"
                + " that tells them apart");
      }
    }
    return problems;
  }

  private void recordProblems(Map<String, List<String>> problems) {
    boolean envelope =
        EnumSettings.parse(RecordFormat.class, getString(RECORD_FORMAT)) == RecordFormat.ENVELOPE;
    if (envelope && getBoolean(METADATA_FIELDS)) {
      add(
          problems,
          METADATA_FIELDS,
          "record.metadata.fields applies to record.format=row; an envelope carries the change"
              + " type in 'op' and the commit in 'source': remove record.metadata.fields");
    }
    if (envelope) {
      for (String table : tablePaths()) {
        if (keyColumnsFor(table).isEmpty()) {
          add(
              problems,
              KEY_COLUMNS,
              "record.format=envelope pairs each update's pre- and post-image by key, but table "
                  + table
                  + " has no key columns: set key.columns (or key.columns.by.table for '"
                  + TableNames.nameOf(table)
                  + "'), or use record.format=row");
        }
      }
    }
  }

  private static void add(Map<String, List<String>> problems, String key, String message) {
    problems.computeIfAbsent(key, k -> new ArrayList<>()).add(message);
  }

  /** Checks what a constructor cannot: throws the first cross-field problem. */
  public void requireConsistent() {
    throwFirst(crossFieldProblems());
  }

  private static void throwFirst(Map<String, List<String>> problems) {
    problems.entrySet().stream()
        .findFirst()
        .ifPresent(
            e -> {
              throw new ConfigException(e.getKey(), null, e.getValue().get(0));
            });
  }

  /** Prints the configuration reference (docs/configuration.md is generated from this). */
  public static void main(String[] args) {
    System.out.print(ConfigDocs.markdown(CONFIG_DEF));
  }
}
