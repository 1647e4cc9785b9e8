package io.deltacdf.connect;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaFeedException;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.offset.ChangeOffset;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the change feeds of its tables and hands their rows to Connect.
 *
 * <p>The loop is synchronous: {@code poll()} reads up to {@code batch.max.rows} rows and returns
 * them, or waits at most {@link #MAX_IDLE_WAIT_MS} and returns null when every table has caught
 * up. A task stays on one table until that table's current version is complete, then moves to
 * the next, so that a version never shares a transaction boundary with half of another table's
 * version.
 */
public final class DeltaCdfSourceTask extends SourceTask {

  private static final Logger log = LoggerFactory.getLogger(DeltaCdfSourceTask.class);

  /** The longest {@code poll()} blocks when there is nothing to read. */
  static final long MAX_IDLE_WAIT_MS = 100;

  private final Object lock = new Object();
  private boolean stopped;
  private DeltaCdfSourceConfig config;
  private String connectorName;
  private List<TableStream> streams;
  private int current;
  private TransactionContext transactions;
  /** Records sent since the open transaction began (exactly-once only). */
  private int recordsInTransaction;

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public void start(Map<String, String> settings) {
    config = new DeltaCdfSourceConfig(settings);
    connectorName = settings.getOrDefault("name", "delta-cdf");
    transactions = context.transactionContext();
    List<String> tables = config.taskTables();
    List<Map<String, String>> partitions =
        tables.stream().map(t -> new TablePartition(t).toMap()).toList();
    Map<Map<String, String>, Map<String, Object>> stored =
        context.offsetStorageReader().offsets(partitions);
    streams = new ArrayList<>();
    try {
      for (String table : tables) {
        streams.add(openStream(table, stored.get(new TablePartition(table).toMap())));
      }
    } catch (RuntimeException e) {
      // A failed start is not followed by stop(): release what the started tables hold.
      streams.forEach(TableStream::close);
      throw e;
    }
  }

  private TableStream openStream(String table, Map<String, Object> storedOffset) {
    DeltaTable deltaTable;
    try {
      deltaTable =
          DeltaTable.open(table, config.hadoopSettings(), config.filesOutsideTableAllowed());
    } catch (DeltaFeedException e) {
      throw failure(table, e);
    }
    try {
      ChangePosition start;
      if (storedOffset != null) {
        start = ChangeOffset.fromMap(storedOffset);
        log.info("Table {} resumes from its stored offset {}", table, storedOffset);
      } else {
        start = deltaTable.resolveStart(StartSpecs.of(config));
        log.info(
            "Table {} has no stored offset; start.mode={} starts it at {}",
            table,
            config.startMode().configValue(),
            start);
      }
      RecordConverter converter =
          new RecordConverter(
              table,
              TableNames.nameOf(table),
              config.topicFor(table),
              new TablePartition(table).toMap(),
              config.keyColumnsFor(table),
              config.recordSettings(connectorName, Version.get()),
              start);
      converter.requireConvertible(deltaTable.latestSchema());
      return new TableStream(
          table,
          deltaTable,
          start,
          converter,
          config.resnapshotOnMissingHistory(),
          new TableMetrics(connectorName, table));
    } catch (DeltaFeedException e) {
      deltaTable.close();
      throw failure(table, e);
    } catch (IllegalArgumentException e) {
      deltaTable.close();
      throw new ConnectException(Redaction.redact(e.getMessage(), config), e);
    }
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    synchronized (lock) {
      if (stopped) {
        return null;
      }
      List<SourceRecord> records = read();
      if (!records.isEmpty()) {
        return records;
      }
      if (transactions != null
          && recordsInTransaction > 0
          && streams.stream().allMatch(s -> s.converter().settled())) {
        // Every table has caught up (or backs off): close what is open rather than leave it
        // hanging, unless update images still wait for their partner.
        transactions.commitTransaction();
        recordsInTransaction = 0;
      }
    }
    Thread.sleep(Math.max(0, Math.min(MAX_IDLE_WAIT_MS, earliestDue() - System.currentTimeMillis())));
    return null;
  }

  /** Reads up to batch.max.rows records, staying on a table until its version is complete. */
  private List<SourceRecord> read() {
    int maxRows = config.batchMaxRows();
    long pollIntervalMs = config.pollInterval().toMillis();
    List<SourceRecord> records = new ArrayList<>();
    int tried = 0;
    while (records.size() < maxRows && tried < streams.size()) {
      TableStream stream = streams.get(current);
      long now = System.currentTimeMillis();
      ChangeBatch batch;
      try {
        batch = stream.due(now) ? stream.next(maxRows - records.size(), now, pollIntervalMs) : null;
      } catch (DeltaFeedException e) {
        throw failure(stream.table(), e);
      }
      if (batch == null) {
        nextTable();
        tried++;
        continue;
      }
      tried = 0;
      boolean versionEnded = add(stream, batch, records);
      if (versionEnded) {
        nextTable();
      }
    }
    return records;
  }

  /** The exception a task fails with: secrets removed, the credential setting named. */
  private ConnectException failure(String table, DeltaFeedException error) {
    String setting = config.credentialSettingFor(table);
    if (error.kind() == DeltaFeedException.Kind.ACCESS_DENIED && setting != null) {
      error =
          new DeltaFeedException(
              error.kind(), error.getMessage() + " (setting: " + setting + ")", error.getCause());
    }
    return Redaction.toConnectException(error, config);
  }

  /**
   * Converts the batch; returns whether its last row completed a commit version. A transaction
   * ends at the end of a version, or once it holds transaction.max.rows records, but only where
   * the converter is settled, so the stored offset is exactly the position after the last record.
   */
  private boolean add(TableStream stream, ChangeBatch batch, List<SourceRecord> records) {
    boolean versionEnded = false;
    RecordConverter converter = stream.converter();
    for (ChangeRow row : batch.rows()) {
      List<SourceRecord> converted;
      try {
        converted = converter.convert(row, batch.schema());
      } catch (RuntimeException e) {
        throw new ConnectException(
            Redaction.redact(
                "Table " + stream.table() + " version " + row.version() + ": " + e.getMessage(),
                config),
            e);
      }
      records.addAll(converted);
      versionEnded = row.endsVersion();
      if (transactions != null) {
        recordsInTransaction += converted.size();
        boolean boundary =
            versionEnded || recordsInTransaction >= config.transactionMaxRows();
        if (boundary && recordsInTransaction > 0 && converter.settled()) {
          commitTransaction(records.isEmpty() ? null : records.get(records.size() - 1));
        }
      }
    }
    return versionEnded;
  }

  /**
   * Commits after {@code last}, this poll's latest record (the transaction's records since the
   * last commit end there, even when the row that ends it was filtered out), or after the whole
   * poll when this poll has none yet (the transaction's records went out in earlier polls).
   */
  private void commitTransaction(SourceRecord last) {
    if (last == null) {
      transactions.commitTransaction();
    } else {
      transactions.commitTransaction(last);
    }
    recordsInTransaction = 0;
  }

  private void nextTable() {
    current = (current + 1) % streams.size();
  }

  private long earliestDue() {
    return streams.stream().mapToLong(TableStream::idleUntilMs).min().orElse(0);
  }

  /**
   * Called from another thread than {@code poll()}: waits for a running read to finish (reads
   * are bounded by batch.max.rows) so that no file is closed under it.
   */
  @Override
  public void stop() {
    synchronized (lock) {
      stopped = true;
      if (streams != null) {
        streams.forEach(TableStream::close);
      }
    }
  }
}
