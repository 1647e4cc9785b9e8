package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.it.testing.TopicReader;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One changing table split by key into three shards (table.shards=3) with exactly-once, read at
 * once by two connectors: one over two tasks, one whose single task (tasks.max=1, fewer tasks than
 * shards) reads all three. For each, a read_committed consumer sees every change of Spark's
 * table_changes exactly once, and per key the commit versions never go back, although the shards'
 * records interleave in the topic's partitions. Each shard stores its own offset.
 */
class ShardsIT {

  private static final Duration WAIT = Duration.ofSeconds(120);

  /** Connector (and topic) names, by tasks.max. */
  private static final Map<String, Integer> CONNECTORS = Map.of("shards", 2, "shards-one-task", 1);

  @TempDir Path dir;

  @Test
  void threeShardsOnTwoTasksOrOneSendEveryChangeOnceInKeyOrder() throws Exception {
    try (KafkaCluster cluster = KafkaCluster.builder().exactlyOnce(true).start();
        ChangingTable table = new ChangingTable(dir.resolve("orders").toString(), 38L, 500)) {
      table.write(3);
      for (Map.Entry<String, Integer> connector : CONNECTORS.entrySet()) {
        Map<String, String> config =
            ConnectorConfig.forTables(table.path())
                .tasksMax(connector.getValue())
                .with("table.shards", "3")
                .topicTemplate(connector.getKey())
                .startMode("earliest")
                .keyColumns("id")
                .pollIntervalMs(200)
                .with("batch.max.rows", "300")
                .exactlyOnce()
                .build();
        cluster.rest().deploy(connector.getKey(), config, connector.getValue(), WAIT);
      }
      table.start(200);
      Thread.sleep(6_000);
      table.stop();

      List<String> expected = table.sparkChanges();
      for (String name : CONNECTORS.keySet()) {
        List<ConsumerRecord<byte[], byte[]>> records =
            ChangingTable.readEveryChange(
                cluster.bootstrapServers(), name, expected, Duration.ofSeconds(3), WAIT, true);
        FeedCheck check = new FeedCheck(expected, records);
        System.out.printf(
            "ShardsIT %s: writes %s: %s%n", name, table.operations(), check.summary());
        assertThat(check.lost).as(name + ": " + check.summary()).isZero();
        assertThat(check.unexpected).as(name + ": " + check.summary()).isZero();
        assertThat(check.duplicated).as(name + ": " + check.summary()).isZero();
        assertThat(keysGoingBack(records)).as(name).isEmpty();
        assertThat(cluster.rest().offsets(name).toString())
            .as(name)
            .contains("\"shard\":\"0/3\"", "\"shard\":\"1/3\"", "\"shard\":\"2/3\"");
      }
    }
  }

  /** The keys whose records' commit versions go back somewhere in the topic. */
  static List<String> keysGoingBack(List<ConsumerRecord<byte[], byte[]>> records) {
    Map<Long, Long> lastVersion = new HashMap<>();
    List<String> problems = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (record.value() == null) {
        continue; // a tombstone follows its delete
      }
      long id = TopicReader.jsonValue(record.value()).get("id").asLong();
      long version = TopicReader.longHeader(record, "_commit_version");
      Long before = lastVersion.put(id, Math.max(version, lastVersion.getOrDefault(id, -1L)));
      if (before != null && version < before) {
        problems.add("id " + id + ": version " + version + " after " + before);
      }
    }
    return problems;
  }
}
