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
 * One changing table split by key into three shards (table.shards=3) over two tasks, with
 * exactly-once: a read_committed consumer sees every change of Spark's table_changes exactly once,
 * and per key the commit versions never go back, although the shards' records interleave in the
 * topic's partitions. Each shard stores its own offset.
 */
class ShardsIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String NAME = "shards";

  @TempDir Path dir;

  @Test
  void threeShardsOnTwoTasksSendEveryChangeOnceInKeyOrder() throws Exception {
    try (KafkaCluster cluster = KafkaCluster.builder().exactlyOnce(true).start();
        ChangingTable table = new ChangingTable(dir.resolve("orders").toString(), 38L, 500)) {
      table.write(3);
      Map<String, String> config =
          ConnectorConfig.forTables(table.path())
              .tasksMax(2)
              .with("table.shards", "3")
              .topicTemplate(NAME)
              .startMode("earliest")
              .keyColumns("id")
              .pollIntervalMs(200)
              .with("batch.max.rows", "300")
              .exactlyOnce()
              .build();
      cluster.rest().deploy(NAME, config, 2, WAIT);
      table.start(200);
      Thread.sleep(6_000);
      table.stop();

      List<String> expected = table.sparkChanges();
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(), NAME, expected, Duration.ofSeconds(3), WAIT, true);
      FeedCheck check = new FeedCheck(expected, records);
      System.out.printf("ShardsIT: writes %s: %s%n", table.operations(), check.summary());
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      assertThat(check.duplicated).as(check.summary()).isZero();
      assertThat(keysGoingBack(records)).isEmpty();
      assertThat(cluster.rest().offsets(NAME).toString())
          .contains("\"shard\":\"0/3\"", "\"shard\":\"1/3\"", "\"shard\":\"2/3\"");
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
