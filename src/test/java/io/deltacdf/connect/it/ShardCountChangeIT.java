package io.deltacdf.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.it.testing.ChangingTable;
import io.deltacdf.connect.it.testing.FeedCheck;
import io.deltacdf.connect.it.testing.KafkaCluster;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * table.shards changed on a running connector (1 → 3 → 2) while a writer commits versions, with
 * exactly-once: the new shards take over where the old partitions stood, so a read_committed
 * consumer sees every change of Spark's table_changes exactly once, and per key the commit versions
 * never go back.
 */
class ShardCountChangeIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String NAME = "reshard";

  @TempDir Path dir;

  @Test
  void changingTheShardCountMidStreamSendsEveryChangeOnceInKeyOrder() throws Exception {
    try (KafkaCluster cluster = KafkaCluster.builder().exactlyOnce(true).start();
        ChangingTable table = new ChangingTable(dir.resolve("orders").toString(), 39L, 500)) {
      table.write(3);
      ConnectorConfig config =
          ConnectorConfig.forTables(table.path())
              .tasksMax(2)
              .topicTemplate(NAME)
              .startMode("earliest")
              .keyColumns("id")
              .pollIntervalMs(200)
              .with("batch.max.rows", "300")
              .exactlyOnce();
      cluster.rest().deploy(NAME, shards(config, 1), 1, WAIT);
      table.start(200);
      Thread.sleep(4_000);
      cluster.rest().putConfig(NAME, shards(config, 3));
      Thread.sleep(5_000);
      cluster.rest().awaitRunning(NAME, 2, WAIT);
      cluster.rest().putConfig(NAME, shards(config, 2));
      Thread.sleep(5_000);
      cluster.rest().awaitRunning(NAME, 2, WAIT);
      table.stop();

      List<String> expected = table.sparkChanges();
      List<ConsumerRecord<byte[], byte[]>> records =
          ChangingTable.readEveryChange(
              cluster.bootstrapServers(), NAME, expected, Duration.ofSeconds(3), WAIT, true);
      FeedCheck check = new FeedCheck(expected, records);
      System.out.printf("ShardCountChangeIT: writes %s: %s%n", table.operations(), check.summary());
      assertThat(check.lost).as(check.summary()).isZero();
      assertThat(check.unexpected).as(check.summary()).isZero();
      assertThat(check.duplicated).as(check.summary()).isZero();
      assertThat(ShardsIT.keysGoingBack(records)).isEmpty();
      assertThat(cluster.rest().offsets(NAME).toString())
          .contains("\"shard\":\"0/2\"", "\"shard\":\"1/2\"", "\"shard\":\"2/3\"");
    }
  }

  private static Map<String, String> shards(ConnectorConfig config, int count) {
    return config.with("table.shards", Integer.toString(count)).build();
  }
}
