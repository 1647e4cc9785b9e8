package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Folders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lakehouse root through a real worker: the tables of a Fabric-shaped root ({@code
 * Tables/<schema>/<table>}) stream to topics named by schema and table, spread over two tasks; a
 * table created while the connector runs streams after the next rescan; an excluded one never does;
 * a table whose folder is dropped stops without failing its task, keeps its offsets, and the task's
 * other tables go on. Every topic ends with exactly its table's rows: the reconfigurations lose and
 * repeat nothing. CI runs 4 tables; {@code -Ddiscovery.tables=10} runs the ten.
 */
class TableDiscoveryIT {

  private static final int TABLES = Integer.getInteger("discovery.tables", 4);
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Duration QUIET = Duration.ofSeconds(4);

  @TempDir static Path lake;
  private static KafkaCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = KafkaCluster.builder().start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String table(String relative, int rows) {
    String path = lake.resolve(relative).toString();
    sql(
        "CREATE TABLE delta.`%s` (id INT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        path);
    insert(path, 0, rows);
    return path;
  }

  private static void insert(String path, int from, int to) {
    sql(
        "INSERT INTO delta.`%s` SELECT CAST(id AS INT), concat('n', id) FROM range(%d, %d)",
        path, from, to);
  }

  private static String topic(String schema, String table) {
    return "lake." + schema + "." + table;
  }

  @Test
  void tablesComeAndGoWithoutLossOrRepeats() {
    List<String> tables = new ArrayList<>();
    for (int i = 0; i < TABLES; i++) {
      tables.add(table("Tables/sales/t" + i, 3));
    }
    table("Tables/staging/scratch", 2);

    Map<String, String> config =
        ConnectorConfig.forTables("")
            .with("delta.tables.root", lake.toString())
            .with("delta.tables.exclude.list", "Tables/staging/.*")
            .with("delta.tables.rescan.interval.ms", "2000")
            .topicTemplate("lake.${schema}.${table}")
            .keyColumns("id")
            .tasksMax(2)
            .pollIntervalMs(200)
            .startMode("earliest")
            .build();
    cluster.rest().deploy("lake", config, 2, WAIT);
    for (int i = 0; i < TABLES; i++) {
      TopicReader.readExactly(cluster.bootstrapServers(), topic("sales", "t" + i), 3, WAIT);
    }

    // A new table, in a new schema folder, streams after the next rescan.
    table("Tables/crm/fresh", 2);
    TopicReader.readExactly(cluster.bootstrapServers(), topic("crm", "fresh"), 2, WAIT);

    // A table whose folder is dropped stops; its task and the other tables go on.
    Folders.deleteRecursively(Path.of(tables.get(0)));
    insert(tables.get(1), 3, 5);
    table("Tables/staging/later", 1);
    TopicReader.readExactly(cluster.bootstrapServers(), topic("sales", "t1"), 5, WAIT);
    cluster.rest().awaitRunning("lake", 2, WAIT);

    JsonNode offsets = cluster.rest().offsets("lake");
    assertThat(offsets.toString())
        .as("the dropped table's offsets stay")
        .contains(tables.get(0) + "\"");
    assertThat(cluster.topicExists(topic("staging", "scratch"))).as("excluded").isFalse();
    assertThat(cluster.topicExists(topic("staging", "later"))).as("excluded").isFalse();

    for (int i = 0; i < TABLES; i++) {
      int expected = i == 1 ? 5 : 3;
      List<ConsumerRecord<byte[], byte[]>> records =
          TopicReader.readUntilQuiet(
              cluster.bootstrapServers(), topic("sales", "t" + i), QUIET, WAIT, false);
      assertThat(records).as("records of t%d", i).hasSize(expected);
    }
    assertThat(
            TopicReader.readUntilQuiet(
                cluster.bootstrapServers(), topic("crm", "fresh"), QUIET, WAIT, false))
        .hasSize(2);
  }
}
