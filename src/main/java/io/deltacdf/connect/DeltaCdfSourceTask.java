package io.deltacdf.connect;

import io.deltacdf.connect.task.TaskLoop;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/** The task Connect runs: its poll loop is {@link TaskLoop}. */
public final class DeltaCdfSourceTask extends SourceTask {

  private TaskLoop loop;

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public void start(Map<String, String> settings) {
    loop = new TaskLoop(settings, context, version());
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    return loop.poll();
  }

  /** Called from the producer's thread; see {@link TaskLoop#acknowledged}. */
  @Override
  public void commitRecord(SourceRecord record, RecordMetadata metadata) {
    loop.acknowledged(record, metadata);
  }

  /** Called from another thread than {@code poll()}; see {@link TaskLoop#stop()}. */
  @Override
  public void stop() {
    if (loop != null) {
      loop.stop();
    }
  }
}
