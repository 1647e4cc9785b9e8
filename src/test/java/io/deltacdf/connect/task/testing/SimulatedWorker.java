package io.deltacdf.connect.task.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.DeltaCdfSourceTask;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.testing.StoredOffsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.apache.kafka.connect.storage.OffsetUtils;

/**
 * Runs a task as a Connect worker would, without Kafka: every record a poll returns is delivered
 * and its offset stored (the latest per source partition, as Connect stores them), a poll that
 * throws a {@link RetriableException} loses its records (Connect drops them and polls again), and
 * any other exception fails the task, which the test may then restart from the stored offsets. Each
 * delivered record is acknowledged to the task ({@code commitRecord}). With exactly-once, the
 * transaction boundaries the task asks for are kept, so that a test can check what each transaction
 * holds, and what Connect refuses fails the poll: a commit and an abort of the whole poll, or an
 * abort when a commit at one of the poll's records has already ended the transaction (Connect would
 * have committed what the abort was meant to drop).
 */
public final class SimulatedWorker {

  private final StoredOffsets offsets = new StoredOffsets();
  private final List<SourceRecord> delivered = new ArrayList<>();

  /** Exactly-once: the records of each committed transaction, in order. */
  private final List<List<SourceRecord>> transactions = new ArrayList<>();

  private final boolean exactlyOnce;
  private List<SourceRecord> openTransaction = new ArrayList<>();

  /** As Connect's own transaction context, a set: one poll may end several transactions. */
  private final Set<SourceRecord> commitAfter = new HashSet<>();

  private boolean commitAfterPoll;
  private boolean abortAfterPoll;
  private DeltaCdfSourceTask task;

  public SimulatedWorker(boolean exactlyOnce) {
    this.exactlyOnce = exactlyOnce;
  }

  public void start(Map<String, String> settings) {
    task = new DeltaCdfSourceTask();
    task.initialize(new Context());
    task.start(settings);
  }

  public void stop() {
    if (task != null) {
      task.stop();
      task = null;
    }
    openTransaction = new ArrayList<>(); // an open transaction is aborted
  }

  /** One poll; returns its records (none when it threw a retriable exception). */
  public List<SourceRecord> poll() throws InterruptedException {
    List<SourceRecord> records;
    try {
      records = task.poll();
    } catch (RetriableException e) {
      return List.of();
    }
    for (SourceRecord record : records == null ? List.<SourceRecord>of() : records) {
      // What Connect checks before it stores an offset: primitive values only.
      OffsetUtils.validateFormat(record.sourcePartition());
      OffsetUtils.validateFormat(record.sourceOffset());
      delivered.add(record);
      offsets.put(record.sourcePartition(), record.sourceOffset());
      task.commitRecord(
          record, new RecordMetadata(new TopicPartition(record.topic(), 0), 0, 0, 0, 0, 0));
      openTransaction.add(record);
      if (commitAfter.remove(record)) {
        commit();
      }
    }
    commitAfter.clear();
    boolean abortBatch = abortAfterPoll;
    boolean commitBatch = commitAfterPoll;
    abortAfterPoll = false;
    commitAfterPoll = false;
    if (abortBatch && commitBatch) {
      throw new IllegalStateException("A commit and an abort of the same poll's transaction");
    }
    if (abortBatch) {
      if (openTransaction.isEmpty()) {
        throw new IllegalStateException(
            "An abort with no open transaction: a commit at a record of this poll ended it");
      }
      abort();
    } else if (commitBatch) {
      commit();
    }
    return records == null ? List.of() : records;
  }

  /** Polls {@code times} times; returns every record. */
  public List<SourceRecord> poll(int times) throws InterruptedException {
    List<SourceRecord> all = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      all.addAll(poll());
    }
    return all;
  }

  /** Polls until a poll throws something other than a retriable exception; returns that. */
  public ConnectException pollUntilFailed(int times) throws InterruptedException {
    for (int i = 0; i < times; i++) {
      try {
        poll();
      } catch (ConnectException e) {
        return e;
      }
    }
    throw new AssertionError("The task did not fail in " + times + " polls");
  }

  private void commit() {
    if (exactlyOnce && !openTransaction.isEmpty()) {
      transactions.add(openTransaction);
      openTransaction = new ArrayList<>();
    }
  }

  /**
   * As Connect does: the open transaction's records are dropped (a read_committed consumer never
   * sees them), but their offsets are stored all the same.
   */
  private void abort() {
    delivered.subList(delivered.size() - openTransaction.size(), delivered.size()).clear();
    openTransaction = new ArrayList<>();
  }

  /** Replaces a table's stored offset, as PATCH /connectors/{name}/offsets does. */
  public void alterOffset(String table, Map<String, ?> offset) {
    offsets.put(Map.of("table", table), offset);
  }

  public Map<String, Object> storedOffset(String table) {
    return offsets.stored(Map.of("table", table));
  }

  /** The offset stored for a source partition, such as a snapshot slice's. */
  public Map<String, Object> storedOffset(Map<String, ?> partition) {
    return offsets.stored(partition);
  }

  /** The position stored for {@code table}, without the table's identity; null when none. */
  public ChangePosition storedPosition(String table) {
    return storedPosition(Map.of("table", table));
  }

  /** The position stored for a source partition, such as a snapshot slice's; null when none. */
  public ChangePosition storedPosition(Map<String, ?> partition) {
    Map<String, Object> stored = offsets.stored(partition);
    return stored == null ? null : OffsetCodec.fromMap(stored);
  }

  /** The offsets stored so far, as a connector on this worker reads them. */
  public OffsetStorageReader offsetReader() {
    return offsets;
  }

  public List<SourceRecord> delivered() {
    return delivered;
  }

  public List<List<SourceRecord>> transactions() {
    return transactions;
  }

  /** Each committed transaction holds change rows of one version of one table, or none. */
  public void assertTransactionsHoldOneVersionEach(String heartbeatTopic) {
    for (List<SourceRecord> transaction : transactions) {
      Set<String> versions = new HashSet<>();
      for (SourceRecord record : transaction) {
        if (!record.topic().equals(heartbeatTopic)) {
          versions.add(
              record.topic() + "@" + record.headers().lastWithName("_commit_version").value());
        }
      }
      assertThat(versions).as("versions in one transaction").hasSizeLessThanOrEqualTo(1);
    }
  }

  private final class Context implements SourceTaskContext {
    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
      return null;
    }

    @Override
    public TransactionContext transactionContext() {
      if (!exactlyOnce) {
        return null;
      }
      return new TransactionContext() {
        @Override
        public void commitTransaction() {
          commitAfterPoll = true;
        }

        @Override
        public void commitTransaction(SourceRecord record) {
          commitAfter.add(record);
        }

        @Override
        public void abortTransaction() {
          abortAfterPoll = true;
        }

        @Override
        public void abortTransaction(SourceRecord record) {
          throw new UnsupportedOperationException();
        }
      };
    }

    @Override
    public OffsetStorageReader offsetStorageReader() {
      return offsets;
    }
  }
}
