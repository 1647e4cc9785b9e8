package io.deltacdf.connect.bench;

import com.sun.management.OperatingSystemMXBean;
import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.TableIdentity;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.offset.OffsetCodec;
import io.deltacdf.connect.offset.SignalState;
import io.deltacdf.connect.offset.TablePartition;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;

/**
 * The work between our reader and the producer, in one thread and without Kafka: the table's change
 * rows, read into memory (once per pass, the last read kept; each read's CPU and allocation per row
 * printed), are converted by our {@link RecordConverter} into source records, whose key, value and
 * headers then go through Connect's JsonConverter and SimpleHeaderConverter as a worker's task
 * thread sends them. Prints the CPU per million rows, of the thread and of the whole JVM (its
 * collector's threads included), and the thread's allocation per row, for our conversion alone and
 * for both, per pass; run it under JFR ({@code -XX:StartFlightRecording=settings=profile}) to see
 * where the CPU goes.
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/benchmark-test.classpath) \
 *   io.deltacdf.connect.bench.ConvertPath TABLE_PATH [passes] [max rows]
 * </pre>
 */
public final class ConvertPath {

  private ConvertPath() {}

  public static void main(String[] args) {
    String table = args[0];
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    int maxRows = args.length > 2 ? Integer.parseInt(args[2]) : 400_000;
    Map<String, String> config = BenchKafka.connectorConfig(table, "convert-path", "earliest");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean process =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    List<ChangeBatch> batches = List.of();
    for (int pass = 1; pass <= passes; pass++) {
      batches = List.of(); // the previous read's rows may go while this one reads
      long start = threads.getCurrentThreadCpuTime();
      long startProcess = process.getProcessCpuTime();
      long startBytes = allocatedBytes(threads);
      batches = read(table, maxRows);
      long read = threads.getCurrentThreadCpuTime() - start;
      long readProcess = process.getProcessCpuTime() - startProcess;
      long readBytes = allocatedBytes(threads) - startBytes;
      long rows = batches.stream().mapToLong(batch -> batch.rows().size()).sum();
      System.out.printf(
          "read %d: %,d change rows; CPU-s per million rows %.2f | %.2f; %.2f KB allocated per"
              + " row%n",
          pass, rows, read / 1e3 / rows, readProcess / 1e3 / rows, readBytes / 1e3 / rows);
    }
    long rows = batches.stream().mapToLong(batch -> batch.rows().size()).sum();
    for (int pass = 1; pass <= passes; pass++) {
      long start = threads.getCurrentThreadCpuTime();
      long startProcess = process.getProcessCpuTime();
      long startBytes = allocatedBytes(threads);
      long records = convert(table, config, batches, false);
      long ours = threads.getCurrentThreadCpuTime() - start;
      long oursProcess = process.getProcessCpuTime() - startProcess;
      long oursBytes = allocatedBytes(threads) - startBytes;
      start = threads.getCurrentThreadCpuTime();
      startProcess = process.getProcessCpuTime();
      startBytes = allocatedBytes(threads);
      convert(table, config, batches, true);
      long both = threads.getCurrentThreadCpuTime() - start;
      long bothProcess = process.getProcessCpuTime() - startProcess;
      long bothBytes = allocatedBytes(threads) - startBytes;
      System.out.printf(
          "pass %d: %,d records; CPU-s per million rows (thread | whole JVM, GC included):"
              + " ours %.2f | %.2f; ours + Connect's converters %.2f | %.2f;"
              + " KB allocated per row: ours %.2f; ours + Connect's converters %.2f%n",
          pass,
          records,
          ours / 1e3 / rows,
          oursProcess / 1e3 / rows,
          both / 1e3 / rows,
          bothProcess / 1e3 / rows,
          oursBytes / 1e3 / rows,
          bothBytes / 1e3 / rows);
    }
  }

  /** The bytes this thread has allocated so far. */
  private static long allocatedBytes(ThreadMXBean threads) {
    return ((com.sun.management.ThreadMXBean) threads).getCurrentThreadAllocatedBytes();
  }

  private static List<ChangeBatch> read(String table, int maxRows) {
    List<ChangeBatch> batches = new ArrayList<>();
    long rows = 0;
    try (DeltaTable delta = DeltaTable.open(table, Map.of(), false);
        DeltaChangeFeed feed = delta.openFeed(ChangePosition.InVersion.start(0))) {
      ChangeBatch batch;
      while (rows < maxRows && (batch = feed.next(10_000)) != null) {
        batches.add(batch);
        rows += batch.rows().size();
      }
    }
    return batches;
  }

  /** Converts every row as a task does, then, if asked, as the worker does; returns the records. */
  private static long convert(
      String table, Map<String, String> config, List<ChangeBatch> batches, boolean connect) {
    DeltaCdfSourceConfig settings = new DeltaCdfSourceConfig(config);
    RecordConverter converter =
        new RecordConverter(
            table,
            TableNames.nameOf(table),
            settings.topicFor(table),
            new TablePartition(table).toMap(),
            settings.keyColumnsFor(table),
            settings.recordSettings("convert-path", "benchmark"));
    TableIdentity identity = new TableIdentity("bench-table-id", null);
    converter.offsetsBy(position -> OffsetCodec.toMap(position, identity, "", SignalState.NONE));
    JsonConverter keys = new JsonConverter();
    keys.configure(Map.of("schemas.enable", "false"), true);
    JsonConverter values = new JsonConverter();
    values.configure(Map.of("schemas.enable", "false"), false);
    SimpleHeaderConverter headers = new SimpleHeaderConverter();
    headers.configure(Map.of());
    long records = 0;
    long bytes = 0;
    ChangePosition before = ChangePosition.InVersion.start(0);
    for (ChangeBatch batch : batches) {
      FieldType.Struct schema = batch.schema();
      for (ChangeRow row : batch.rows()) {
        for (SourceRecord record : converter.convert(row, before, schema).records()) {
          records++;
          if (connect) {
            bytes += send(record, keys, values, headers);
          }
        }
        before = row.after();
      }
    }
    return records + (bytes < 0 ? 1 : 0);
  }

  /** What a worker does with a record before the producer: its bytes' length. */
  private static long send(
      SourceRecord record, JsonConverter keys, JsonConverter values, SimpleHeaderConverter hc) {
    String topic = record.topic();
    RecordHeaders raw = new RecordHeaders();
    for (Header header : record.headers()) {
      raw.add(
          header.key(), hc.fromConnectHeader(topic, header.key(), header.schema(), header.value()));
    }
    byte[] key = keys.fromConnectData(topic, raw, record.keySchema(), record.key());
    byte[] value = values.fromConnectData(topic, raw, record.valueSchema(), record.value());
    return key.length + value.length + record.sourceOffset().size();
  }
}
