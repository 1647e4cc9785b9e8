package io.deltacdf.connect.bench;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.offset.TablePartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;

/**
 * Connect's own share of the work: what a worker does with each record a source task returns —
 * JsonConverter (schemas off) on key and value, SimpleHeaderConverter on each header, then
 * KafkaProducer.send — applied to our records, without reading or converting anything. It cycles
 * through the table's first {@value #SAMPLE_ROWS} change rows, converted once by our
 * RecordConverter with the benchmark's connector config, so it bounds what any source connector
 * sending these records through these converters can reach on this machine.
 */
final class ConnectCeiling {

  private static final int SAMPLE_ROWS = 10_000;

  private ConnectCeiling() {}

  /**
   * Sends {@code count} records to {@code topic}; the CPU it reports is converting and sending, the
   * sample's reading excluded.
   */
  static ProducerCeiling.Run run(
      Topics topics,
      String topic,
      long count,
      String table,
      Map<String, String> connectorConfig,
      Map<String, String> producerSettings) {
    List<SourceRecord> sample = ourRecords(table, connectorConfig);
    JsonConverter keys = jsonConverter(connectorConfig, "key.converter.", true);
    JsonConverter values = jsonConverter(connectorConfig, "value.converter.", false);
    SimpleHeaderConverter headers = new SimpleHeaderConverter();
    headers.configure(Map.of());
    return ProducerCeiling.send(
        topics,
        topic,
        count,
        producerSettings,
        i -> {
          SourceRecord record = sample.get((int) (i % sample.size()));
          RecordHeaders rawHeaders = new RecordHeaders();
          for (Header header : record.headers()) {
            rawHeaders.add(
                header.key(),
                headers.fromConnectHeader(topic, header.key(), header.schema(), header.value()));
          }
          byte[] key = keys.fromConnectData(topic, rawHeaders, record.keySchema(), record.key());
          byte[] value =
              values.fromConnectData(topic, rawHeaders, record.valueSchema(), record.value());
          return new ProducerRecord<>(topic, null, record.timestamp(), key, value, rawHeaders);
        });
  }

  private static List<SourceRecord> ourRecords(String table, Map<String, String> connectorConfig) {
    DeltaCdfSourceConfig config = new DeltaCdfSourceConfig(connectorConfig);
    ChangePosition start = ChangePosition.InVersion.start(0);
    RecordConverter converter =
        new RecordConverter(
            table,
            TableNames.nameOf(table),
            config.topicFor(table),
            new TablePartition(table).toMap(),
            config.keyColumnsFor(table),
            config.recordSettings("connect-ceiling", "benchmark"));
    List<SourceRecord> records = new ArrayList<>();
    try (DeltaTable delta = DeltaTable.open(table, Map.of(), false);
        DeltaChangeFeed feed = delta.openFeed(start)) {
      ChangeBatch batch;
      ChangePosition before = start;
      while (records.size() < SAMPLE_ROWS && (batch = feed.next(SAMPLE_ROWS)) != null) {
        for (ChangeRow row : batch.rows()) {
          records.addAll(converter.convert(row, before, batch.schema()).records());
          before = row.after();
        }
      }
    }
    return records;
  }

  private static JsonConverter jsonConverter(
      Map<String, String> connectorConfig, String prefix, boolean isKey) {
    Map<String, String> settings = new HashMap<>();
    connectorConfig.forEach(
        (name, value) -> {
          if (name.startsWith(prefix)) {
            settings.put(name.substring(prefix.length()), value);
          }
        });
    JsonConverter converter = new JsonConverter();
    converter.configure(settings, isKey);
    return converter;
  }
}
