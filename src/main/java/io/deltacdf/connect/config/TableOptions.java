package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.FILES_OUTSIDE_TABLE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.KEY_COLUMNS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.KEY_COLUMNS_BY_TABLE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLES_EXCLUDE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLES_INCLUDE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLES_MAX_DEPTH;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLES_RESCAN_INTERVAL_MS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLE_PATHS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLE_ROOTS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLE_SHARDS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TOPIC_TEMPLATE;
import static io.deltacdf.connect.config.TopicNaming.PATH_PLACEHOLDER;
import static io.deltacdf.connect.config.TopicNaming.SCHEMA_PLACEHOLDER;
import static io.deltacdf.connect.config.TopicNaming.TABLE_PLACEHOLDER;

import io.deltacdf.connect.change.TableShard;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The settings of the Tables group: which tables, their topics, keys and store endpoints. */
final class TableOptions {

  private TableOptions() {}

  static void define(ConfigDef def, String group) {
    int order = 0;
    def.define(
        TABLE_PATHS,
        Type.LIST,
        "",
        Importance.HIGH,
        "Comma-separated Delta table URIs whose change data feed to stream: plain paths, file:,"
            + " s3a:, abfs:, abfss: or gs: URIs. Each table needs"
            + " delta.enableChangeDataFeed=true, unless change.source is derived, row-tracking"
            + " or auto. May be empty when delta.tables.root or unity.catalog.tables is set.",
        group,
        ++order,
        Width.LONG,
        "Delta table paths");
    def.define(
        TABLE_ROOTS,
        Type.LIST,
        "",
        Importance.HIGH,
        "Comma-separated folders (same URI forms as delta.table.paths) below which every folder"
            + " holding a _delta_log is a table to stream, besides those of delta.table.paths."
            + " Discovery stops descending at a table, so its files are never listed, and at"
            + " delta.tables.max.depth. Rescanned every delta.tables.rescan.interval.ms: a new"
            + " table starts by start.mode, a table gone or excluded stops and keeps its offsets.",
        group,
        ++order,
        Width.LONG,
        "Table roots");
    def.define(
        TABLES_INCLUDE,
        Type.LIST,
        "",
        Validators.regexList(),
        Importance.MEDIUM,
        "The discovered tables to stream; empty = all. Regular expressions matched whole,"
            + " ignoring case, against each table's path below its root (sales/orders).",
        group,
        ++order,
        Width.LONG,
        "Included tables");
    def.define(
        TABLES_EXCLUDE,
        Type.LIST,
        "",
        Validators.regexList(),
        Importance.MEDIUM,
        "The discovered tables not to stream, as regular expressions on the path below the root;"
            + " applied after delta.tables.include.list.",
        group,
        ++order,
        Width.LONG,
        "Excluded tables");
    def.define(
        TABLES_MAX_DEPTH,
        Type.INT,
        4,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        "How many folder levels below a root discovery descends to find tables (Fabric's"
            + " Tables/<schema>/<table> is 3).",
        group,
        ++order,
        Width.SHORT,
        "Discovery depth");
    def.define(
        TABLES_RESCAN_INTERVAL_MS,
        Type.LONG,
        300_000L,
        ConfigDef.Range.atLeast(1_000L),
        Importance.LOW,
        "How often the roots are listed again for new and removed tables. Each scan lists every"
            + " folder it visits once (one LIST request per folder: the folders above the tables"
            + " and each table's own folder). A scan that fails keeps the current tables and is"
            + " retried after 1 s, doubling up to this interval.",
        group,
        ++order,
        Width.SHORT,
        "Rescan interval");
    def.define(
        TOPIC_TEMPLATE,
        Type.STRING,
        TABLE_PLACEHOLDER,
        Validators.topicTemplate(TABLE_PLACEHOLDER, PATH_PLACEHOLDER, SCHEMA_PLACEHOLDER),
        Importance.HIGH,
        "The topic each table's changes go to. ${table} stands for the last segment of the"
            + " table's path, so the default sends s3a://bucket/lake/orders to topic 'orders';"
            + " ${path} for a discovered table's path below its root with '/' as '.'"
            + " (sales.orders); ${schema} for the folder the table is in (Fabric's"
            + " Tables/<schema>/<table>, dbo for Tables/<table>; a Hive warehouse's <db>.db)."
            + " Characters a topic cannot hold become '_'. Two tables may not share a topic.",
        group,
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
        group,
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
        group,
        ++order,
        Width.LONG,
        "Key columns by table");
    def.define(
        TABLE_SHARDS,
        Type.INT,
        1,
        ConfigDef.Range.between(1, TableShard.MAX_COUNT),
        Importance.MEDIUM,
        "Into how many shards by key each table's change stream is split. Each shard is its own"
            + " source partition with its own offsets, spread over tasks.max like tables: shard i"
            + " sends the changes whose key columns hash to i, so each key's changes still come"
            + " from one stream in commit order. Every shard reads all of the table's change files"
            + " and decodes in full only the rows of its own keys, so reading costs up to N times:"
            + " shard a table whose records cost more to convert and send than to read. Needs key"
            + " columns for every table. It may be"
            + " changed on a running connector: the new shards take over at a version boundary"
            + " from where the old ones stood, each key's changes from its old shard's position,"
            + " with nothing lost and, under exactly-once, nothing repeated; a change while an old"
            + " shard is inside its snapshot fails the new shards' tasks, saying to set it back"
            + " until the snapshot is done.",
        group,
        ++order,
        Width.SHORT,
        "Shards per table");
    def.define(
        FILES_OUTSIDE_TABLE,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "Whether the table's log may point at files outside the table's folder (absolute paths"
            + " or '..' segments). Shallow clones legitimately do; otherwise such an entry is"
            + " refused, so a crafted log cannot make the connector read other files.",
        group,
        ++order,
        Width.SHORT,
        "Allow files outside the table");
    StoreEndpoints.define(def, group, ++order);
  }

  /** No table to read: none named, and no root to find them under. */
  static void problems(DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    shardProblems(config, problems);
    if (config.namedTables().isEmpty() && config.tableRoots().isEmpty()) {
      DeltaCdfSourceConfig.add(
          problems,
          TABLE_PATHS,
          "List at least one Delta table in delta.table.paths (e.g. s3a://bucket/lake/orders),"
              + " a folder of tables in delta.tables.root, or tables of Unity Catalog in"
              + " unity.catalog.tables");
    }
  }

  /**
   * Sharding without key columns: a shard holds the changes of its keys, so a table without keys
   * has nothing to split by and no per-key order to keep.
   */
  private static void shardProblems(
      DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    if (config.tableShards() <= 1) {
      return;
    }
    for (String table : config.namedTables()) {
      if (config.keyColumnsFor(table).isEmpty()) {
        DeltaCdfSourceConfig.add(problems, TABLE_SHARDS, unkeyedShards(table));
      }
    }
    if (!config.tableRoots().isEmpty() && config.getList(KEY_COLUMNS).isEmpty()) {
      DeltaCdfSourceConfig.add(
          problems,
          TABLE_SHARDS,
          "table.shards splits each table's changes by key, and the tables found below"
              + " delta.tables.root get key.columns: set it, or table.shards=1");
    }
  }

  /** Why {@code table}, which has no key columns, cannot be sharded. */
  static String unkeyedShards(String table) {
    return "table.shards splits each table's changes by key so that each key's changes keep"
        + " their order, but table "
        + table
        + " has no key columns: set key.columns (or key.columns.by.table for '"
        + TableNames.nameOf(table)
        + "'), or table.shards=1";
  }

  /** The folders whose tables are discovered (delta.tables.root), without trailing slashes. */
  static List<String> roots(AbstractConfig config) {
    return config.getList(TABLE_ROOTS).stream()
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .map(root -> root.replaceAll("/+$", ""))
        .toList();
  }

  /** The key columns of {@code tablePath}: key.columns.by.table's, else key.columns. */
  static List<String> keyColumns(AbstractConfig config, String tablePath) {
    List<String> override =
        Validators.parseKeyColumnsByTable(config.getString(KEY_COLUMNS_BY_TABLE))
            .get(TableNames.nameOf(tablePath));
    if (override != null) {
      return override;
    }
    return config.getList(KEY_COLUMNS).stream()
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .toList();
  }
}
