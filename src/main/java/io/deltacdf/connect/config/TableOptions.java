package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.FILES_OUTSIDE_TABLE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.KEY_COLUMNS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.KEY_COLUMNS_BY_TABLE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLE_PATHS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TABLE_PLACEHOLDER;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TOPIC_TEMPLATE;

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
        ConfigDef.NO_DEFAULT_VALUE,
        Validators.nonEmptyList(),
        Importance.HIGH,
        "Comma-separated Delta table URIs whose change data feed to stream: plain paths, file:,"
            + " s3a:, abfs:, abfss: or gs: URIs. Each table needs"
            + " delta.enableChangeDataFeed=true, unless change.source is derived or auto.",
        group,
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
        FILES_OUTSIDE_TABLE,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "Whether the table's log may point at files outside the table's folder (absolute paths"
            + " or '..' segments). Shallow clones legitimately do; otherwise such an entry is"
            + " refused, so a crafted log cannot make the connector read other files.",
        group,
        5,
        Width.SHORT,
        "Allow files outside the table");
    StoreEndpoints.define(def, group, 6);
  }
}
