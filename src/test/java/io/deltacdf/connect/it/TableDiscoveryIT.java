package io.deltacdf.connect.it;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltacdf.connect.connector.TableDiscoveryMetrics;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.SharedCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.CdfTables;
import io.deltacdf.connect.testing.ConnectorConfig;
import io.deltacdf.connect.testing.Folders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import javax.management.JMException;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lakehouse root through a real worker: the tables of a Fabric-shaped root ({@code
 * Tables/<schema>/<table>}) stream to topics named by schema and table, spread over two tasks; a
 * table created while the connector runs streams after the next rescan; an excluded one never does;
 * a table whose folder is dropped stops without failing its task, keeps its offsets, and the task's
 * other tables go on. Every topic ends with exactly its table's rows: the reconfigurations lose and
 * repeat nothing. CI runs 4 tables; {@code -Ddiscovery.tables=10} runs the ten. Also: a
 * topic stays with the table that has it, and a folder with an empty log becomes a table.
 */
class TableDiscoveryIT {

  private static final int TABLES = Integer.getInteger("discovery.tables", 4);
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Duration QUIET = Duration.ofSeconds(4);

  @TempDir static Path lake;
  @RegisterExtension static final SharedCluster cluster = new SharedCluster(KafkaCluster.builder());

  private static String table(String relative, int rows) {
    String path = CdfTables.create(lake.resolve(relative).toString(), "id INT, name STRING");
    insert(path, 0, rows);
    return path;
  }

  /**
   * Writes a table where a folder with an empty _delta_log is, as a job that retries an aborted
   * first write does (Spark's CREATE TABLE refuses the folder: it exists).
   */
  private static void writeOver(String relative, int rows) {
    sql("SET spark.databricks.delta.properties.defaults.enableChangeDataFeed = true");
    try {
      spark()
          .sql(
              String.format(
                  "SELECT CAST(id AS INT) id, concat('n', id) name FROM range(0, %d)", rows))
          .write()
          .format("delta")
          .mode("append")
          .save(lake.resolve(relative).toString());
    } finally {
      sql("RESET spark.databricks.delta.properties.defaults.enableChangeDataFeed");
    }
  }

  private static void insert(String path, int from, int to) {
    sql(
        "INSERT INTO delta.`%s` SELECT CAST(id AS INT), concat('n', id) FROM range(%d, %d)",
        path, from, to);
  }

  private static Map<String, String> rootConfig(String root) {
    return ConnectorConfig.forTables("")
        .with("delta.tables.root", lake.resolve(root).toString())
        .with("delta.tables.rescan.interval.ms", "1000")
        .topicTemplate("${table}")
        .keyColumns("id")
        .tasksMax(1)
        .pollIntervalMs(200)
        .startMode("earliest")
        .build();
  }

  /** An attribute of the connector's table-discovery MBean, read from the worker's JVM. */
  private static Object discovery(String connector, String attribute) {
    try {
      return cluster
          .get()
          .workerMBeans()
          .getAttribute(TableDiscoveryMetrics.objectName(connector), attribute);
    } catch (JMException e) {
      return null; // not registered (yet)
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void awaitDiscovery(String connector, String attribute, Predicate<Object> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.test(discovery(connector, attribute))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            attribute + " of " + connector + " is still " + discovery(connector, attribute));
      }
      Thread.sleep(200);
    }
  }

  private static Set<Integer> ids(String topic) {
    Set<Integer> ids = new TreeSet<>();
    TopicReader.readUntilQuiet(cluster.get().bootstrapServers(), topic, QUIET, WAIT, false)
        .forEach(r -> ids.add(TopicReader.jsonValue(r.value()).get("id").asInt()));
    return ids;
  }

  private static Set<Integer> range(int from, int to) {
    Set<Integer> ids = new TreeSet<>();
    for (int id = from; id < to; id++) {
      ids.add(id);
    }
    return ids;
  }

  /**
   * With topic.template=${table}, a table appearing earlier in path order with the same folder name
   * neither takes the streaming table's topic at the next rescan nor after a worker restart (when
   * only the stored offsets remember which table had it); the metric names both tables.
   */
  @Test
  void aTopicStaysWithTheTableThatHasItAcrossARescanAndARestart() throws Exception {
    String sales = table("owners/sales/orders", 3);
    cluster.get().rest().deploy("owners", rootConfig("owners"), 1, WAIT);
    TopicReader.readExactly(cluster.get().bootstrapServers(), "orders", 3, WAIT);

    String archive =
        CdfTables.create(lake.resolve("owners/archive/orders").toString(), "id INT, name STRING");
    insert(archive, 100, 102);
    awaitDiscovery("owners", "TablesLeftOut", left -> Integer.valueOf(1).equals(left));
    assertThat((String[]) discovery("owners", "TopicCollisions"))
        .singleElement()
        .asString()
        .contains(archive + " is left out", sales + " keeps the topic");
    insert(sales, 3, 5);
    assertThat(ids("orders")).as("after a rescan").isEqualTo(range(0, 5));

    cluster.get().stopWorker();
    cluster.get().startWorker();
    cluster.get().rest().awaitRunning("owners", 1, WAIT);
    awaitDiscovery("owners", "TablesLeftOut", left -> Integer.valueOf(1).equals(left));
    insert(sales, 5, 7);
    assertThat(ids("orders")).as("after a worker restart").isEqualTo(range(0, 7));
    cluster.get().rest().delete("owners");
  }

  /**
   * A folder with an empty _delta_log (an aborted first write) neither fails validate() nor stalls:
   * the table later written there streams from the next rescan on, whether the folder was there at
   * deployment or appeared after.
   */
  @Test
  void aFolderWithAnEmptyLogStreamsOnceItBecomesATable() throws Exception {
    table("pending/ready", 2);
    Files.createDirectories(lake.resolve("pending/aborted/_delta_log"));
    cluster.get().rest().deploy("pending", rootConfig("pending"), 1, WAIT);
    TopicReader.readExactly(cluster.get().bootstrapServers(), "ready", 2, WAIT);

    Files.createDirectories(lake.resolve("pending/later/_delta_log"));
    awaitDiscovery(
        "pending",
        "FoldersWithoutCommits",
        folders -> folders != null && ((String[]) folders).length == 2);

    writeOver("pending/aborted", 2);
    writeOver("pending/later", 3);
    assertThat(ids("aborted")).isEqualTo(range(0, 2));
    assertThat(ids("later")).isEqualTo(range(0, 3));
    cluster.get().rest().delete("pending");
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
            .with("notification.enabled.channels", "jmx")
            .topicTemplate("lake.${schema}.${table}")
            .keyColumns("id")
            .tasksMax(2)
            .pollIntervalMs(200)
            .startMode("earliest")
            .build();
    cluster.get().rest().deploy("lake", config, 2, WAIT);
    for (int i = 0; i < TABLES; i++) {
      TopicReader.readExactly(cluster.get().bootstrapServers(), topic("sales", "t" + i), 3, WAIT);
    }

    // A new table, in a new schema folder, streams after the next rescan.
    String fresh = table("Tables/crm/fresh", 2);
    TopicReader.readExactly(cluster.get().bootstrapServers(), topic("crm", "fresh"), 2, WAIT);

    // A table whose folder is dropped stops; its task and the other tables go on.
    Folders.deleteRecursively(Path.of(tables.get(0)));
    insert(tables.get(1), 3, 5);
    table("Tables/staging/later", 1);
    TopicReader.readExactly(cluster.get().bootstrapServers(), topic("sales", "t1"), 5, WAIT);
    cluster.get().rest().awaitRunning("lake", 2, WAIT);

    JsonNode offsets = cluster.get().rest().offsets("lake");
    assertThat(offsets.toString())
        .as("the dropped table's offsets stay")
        .contains(tables.get(0) + "\"");
    assertThat(cluster.get().topicExists(topic("staging", "scratch"))).as("excluded").isFalse();
    assertThat(cluster.get().topicExists(topic("staging", "later"))).as("excluded").isFalse();

    for (int i = 0; i < TABLES; i++) {
      int expected = i == 1 ? 5 : 3;
      List<ConsumerRecord<byte[], byte[]>> records =
          TopicReader.readUntilQuiet(
              cluster.get().bootstrapServers(), topic("sales", "t" + i), QUIET, WAIT, false);
      assertThat(records).as("records of t%d", i).hasSize(expected);
    }
    assertThat(
            TopicReader.readUntilQuiet(
                cluster.get().bootstrapServers(), topic("crm", "fresh"), QUIET, WAIT, false))
        .hasSize(2);

    // The connector's notifications bean has what its rescans found and dropped.
    assertThat(connectorNotifications("lake"))
        .anyMatch(n -> n.contains("\"DISCOVERED\"") && n.contains(fresh))
        .anyMatch(n -> n.contains("\"DROPPED\"") && n.contains(tables.get(0) + "\""));
  }

  @SuppressWarnings("unchecked")
  private static List<String> connectorNotifications(String connector) {
    try {
      return (List<String>)
          cluster
              .get()
              .workerMBeans()
              .getAttribute(
                  new ObjectName(
                      "io.deltacdf.connect:type=notifications,connector="
                          + ObjectName.quote(connector)),
                  "Notifications");
    } catch (JMException e) {
      throw new AssertionError(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
