package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.BATCH_MAX_ROWS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.HEARTBEAT_INTERVAL_MS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.HEARTBEAT_TOPIC;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.MAX_ROWS_PER_SECOND;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.POLL_INTERVAL_MS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.PROVIDE_TRANSACTION_METADATA;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TRANSACTION_MAX_ROWS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.TRANSACTION_TOPIC;
import static io.deltacdf.connect.config.TopicNaming.CONNECTOR_PLACEHOLDER;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The settings of the Polling and transactions group. */
final class PollingOptions {

  private PollingOptions() {}

  static void define(ConfigDef def, String group) {
    int order = 0;
    def.define(
        POLL_INTERVAL_MS,
        Type.LONG,
        1000L,
        ConfigDef.Range.atLeast(1),
        Importance.MEDIUM,
        "How often a table that has caught up is checked for new commits. A check that finds none"
            + " costs two file-status requests, however long the table's history is.",
        group,
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
        group,
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
        group,
        ++order,
        Width.SHORT,
        "Transaction size bound (rows)");
    def.define(
        MAX_ROWS_PER_SECOND,
        Type.INT,
        0,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        "The most change records each task hands to Connect per second (heartbeats are not"
            + " counted and still go out); a connector with several tasks may send this many per"
            + " task. Over the budget, a poll returns fewer or no records and waits briefly. With"
            + " exactly-once a version's transaction stays whole and open while the limit holds"
            + " its rows back: keep the producer's transaction.timeout.ms above the time the"
            + " largest version takes at this rate. 0 = no limit.",
        group,
        ++order,
        Width.SHORT,
        "Rate limit (records/s)");
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
        group,
        ++order,
        Width.SHORT,
        "Heartbeat interval (ms)");
    def.define(
        HEARTBEAT_TOPIC,
        Type.STRING,
        "__delta-cdf-heartbeat." + CONNECTOR_PLACEHOLDER,
        Validators.topicTemplate(CONNECTOR_PLACEHOLDER),
        Importance.LOW,
        "The topic heartbeat records go to; "
            + CONNECTOR_PLACEHOLDER
            + " is replaced by the"
            + " connector's name (characters a topic name cannot hold become '_'). Key: struct"
            + " {table}; value: struct {table, version, ts_ms}, where version is the commit"
            + " version the table's reading continues at.",
        group,
        ++order,
        Width.MEDIUM,
        "Heartbeat topic");
    def.define(
        PROVIDE_TRANSACTION_METADATA,
        Type.BOOLEAN,
        false,
        Importance.MEDIUM,
        "Whether each Delta version of each table that yields records is framed by a BEGIN and an"
            + " END event on topic.transaction, in Debezium's transaction metadata format, and"
            + " every change record carries the version's transaction: the envelope's"
            + " transaction block in record.format=envelope, the _transaction_id header in"
            + " record.format=row. END counts the version's events, in total and per change type,"
            + " and names the commit's operation. Snapshot rows have none, as in Debezium. With"
            + " exactly-once, BEGIN and END are in the same Kafka transaction as the version's rows"
            + " (a version split by transaction.max.rows has BEGIN in the first and END in the last"
            + " of them).",
        group,
        ++order,
        Width.SHORT,
        "Transaction metadata");
    def.define(
        TRANSACTION_TOPIC,
        Type.STRING,
        CONNECTOR_PLACEHOLDER + ".transaction",
        Validators.topicTemplate(CONNECTOR_PLACEHOLDER),
        Importance.LOW,
        "The topic BEGIN and END events go to when provide.transaction.metadata=true; "
            + CONNECTOR_PLACEHOLDER
            + " is replaced by the connector's name (characters a topic name cannot hold become"
            + " '_'), as Debezium names it <topic.prefix>.transaction. Key: struct {id}; value:"
            + " struct {status, id, event_count, data_collections, ts_ms, commit_version,"
            + " operation}. Like heartbeat.topic, it must exist on a cluster that creates no"
            + " topics, or be created by Connect's topic creation.",
        group,
        ++order,
        Width.MEDIUM,
        "Transaction topic");
    TopicCheckSettings.define(def, group, ++order);
  }
}
