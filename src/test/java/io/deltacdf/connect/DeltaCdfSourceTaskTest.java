package io.deltacdf.connect;

import static io.deltacdf.connect.testing.SparkHarness.sql;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task's poll loop: bounded batches, a short wait when idle, new commits picked up. */
class DeltaCdfSourceTaskTest {

  @TempDir Path dir;

  @Test
  void pollReturnsBoundedBatchesThenWaitsBrieflyWhenCaughtUp() throws InterruptedException {
    String path = dir.resolve("polled").toString();
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, name STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true')",
        path);
    sql("INSERT INTO delta.`%s` SELECT id, 'n' FROM range(0, 25)", path);

    DeltaCdfSourceTask task = new DeltaCdfSourceTask();
    task.initialize(new EmptyOffsetsContext());
    task.start(
        Map.of(
            "delta.table.paths", path,
            "task.tables", path,
            "batch.max.rows", "10",
            "poll.interval.ms", "60000"));
    try {
      List<SourceRecord> all = new ArrayList<>();
      List<SourceRecord> batch;
      while ((batch = task.poll()) != null) {
        assertThat(batch).hasSizeLessThanOrEqualTo(10);
        all.addAll(batch);
      }
      assertThat(all).hasSize(25);

      long started = System.nanoTime();
      assertThat(task.poll()).isNull();
      long waitedMs = (System.nanoTime() - started) / 1_000_000;
      assertThat(waitedMs).isLessThan(1_000);
    } finally {
      task.stop();
    }
  }

  /** A context with no stored offsets, as for a new connector. */
  private static final class EmptyOffsetsContext implements SourceTaskContext {
    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
      return null;
    }

    @Override
    public OffsetStorageReader offsetStorageReader() {
      return new OffsetStorageReader() {
        @Override
        public <T> Map<String, Object> offset(Map<String, T> partition) {
          return null;
        }

        @Override
        public <T> Map<Map<String, T>, Map<String, Object>> offsets(
            Collection<Map<String, T>> partitions) {
          return Map.of();
        }
      };
    }
  }
}
