package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.change.EndSpec;
import io.deltacdf.connect.convert.FieldNameAdjustment;
import io.deltacdf.connect.convert.RecordFormat;
import io.deltacdf.connect.convert.RecordSettings;
import io.deltacdf.connect.convert.TemporalPrecision;
import io.deltacdf.connect.testing.ConnectorConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class DeltaCdfSourceConfigTest {

  private static DeltaCdfSourceConfig config(String... keyValues) {
    return new DeltaCdfSourceConfig(
        ConnectorConfig.forTables("s3a://bucket/lake/orders,/data/customers/")
            .with(keyValues)
            .build());
  }

  @Test
  void topicsComeFromTheTableFolderName() {
    DeltaCdfSourceConfig config = config();
    assertThat(config.topicFor("s3a://bucket/lake/orders")).isEqualTo("orders");
    assertThat(config.topicFor("/data/customers/")).isEqualTo("customers");
    assertThat(config(DeltaCdfSourceConfig.TOPIC_TEMPLATE, "cdc.${table}").topicFor("/x/orders"))
        .isEqualTo("cdc.orders");
  }

  @Test
  void perTableKeyColumnsOverrideTheDefault() {
    DeltaCdfSourceConfig config =
        config(
            DeltaCdfSourceConfig.KEY_COLUMNS, "id",
            DeltaCdfSourceConfig.KEY_COLUMNS_BY_TABLE, "orders:order_id, region");
    assertThat(config.keyColumnsFor("s3a://bucket/lake/orders"))
        .containsExactly("order_id", "region");
    assertThat(config.keyColumnsFor("/data/customers")).containsExactly("id");
  }

  @Test
  void startTimestampsInEveryDocumentedForm() {
    Instant noon = Instant.parse("2024-05-01T12:00:00Z");
    for (String form :
        List.of(
            "2024-05-01T12:00:00Z",
            "2024-05-01T14:00:00+02:00",
            "2024-05-01T12:00:00",
            String.valueOf(noon.toEpochMilli()))) {
      assertThat(
              StartOptions.startTimestamp(
                  config("start.mode", "timestamp", "start.timestamp", form)))
          .as(form)
          .contains(noon);
    }
    assertThat(
            StartOptions.startTimestamp(
                config("start.mode", "timestamp", "start.timestamp", "2024-05-01")))
        .contains(Instant.parse("2024-05-01T00:00:00Z"));
  }

  @Test
  void conflictsAndCollisionsLandOnTheirKeys() {
    assertThat(config("start.mode", "version").crossFieldProblems())
        .containsOnlyKeys(DeltaCdfSourceConfig.START_VERSION);
    assertThat(config("start.version", "3").crossFieldProblems())
        .containsOnlyKeys(DeltaCdfSourceConfig.START_VERSION);
    assertThat(config(DeltaCdfSourceConfig.TABLE_PATHS, "/a/orders,/b/orders").crossFieldProblems())
        .containsOnlyKeys(DeltaCdfSourceConfig.TOPIC_TEMPLATE);
  }

  @Test
  void theTransactionTopicIsNamedAfterTheConnectorAndNeedsATopicOfItsOwn() {
    String on = DeltaCdfSourceConfig.PROVIDE_TRANSACTION_METADATA;
    String topic = DeltaCdfSourceConfig.TRANSACTION_TOPIC;
    assertThat(config().provideTransactionMetadata()).isFalse();
    assertThat(config().transactionTopic("orders cdf")).isEqualTo("orders_cdf.transaction");
    assertThat(config(on, "true").crossFieldProblems()).isEmpty();
    assertThat(config(topic, "orders").crossFieldProblems()).as("off: never written").isEmpty();
    assertThat(config(on, "true", topic, "orders").crossFieldProblems().get(topic))
        .singleElement()
        .asString()
        .contains("also the topic of table s3a://bucket/lake/orders")
        .contains("choose another topic.transaction");
    assertThat(
            config(on, "true", topic, "beats.${connector}", "heartbeat.topic", "beats.${connector}")
                .crossFieldProblems())
        .containsOnlyKeys(topic);
  }

  @Test
  void aBoundedRunHasOneEndNotBeforeItsStart() {
    assertThat(config().end()).isEmpty();
    assertThat(config("end.version", "7").end()).contains(new EndSpec.AtVersion(7));
    assertThat(config("end.timestamp", "2024-05-01").end())
        .contains(new EndSpec.AtTimestamp(Instant.parse("2024-05-01T00:00:00Z").toEpochMilli()));
    assertThat(config("end.version", "7", "end.timestamp", "2024-05-01").crossFieldProblems())
        .containsOnlyKeys(DeltaCdfSourceConfig.END_TIMESTAMP);
    assertThat(
            config("start.mode", "version", "start.version", "5", "end.version", "4")
                .crossFieldProblems()
                .get(DeltaCdfSourceConfig.END_VERSION))
        .singleElement()
        .asString()
        .contains("end.version=4", "start.version=5");
    assertThat(
            config("start.mode", "version", "start.version", "5", "end.version", "5")
                .crossFieldProblems())
        .as("a run of one version")
        .isEmpty();
    assertThat(
            config(
                    "start.mode", "timestamp",
                    "start.timestamp", "2024-05-02",
                    "end.timestamp", "2024-05-01")
                .crossFieldProblems()
                .get(DeltaCdfSourceConfig.END_TIMESTAMP))
        .singleElement()
        .asString()
        .contains("end.timestamp=2024-05-01T00:00:00Z", "start.timestamp=2024-05-02T00:00:00Z");
    assertThatThrownBy(() -> config("end.version", "-1"))
        .hasMessageContaining("end.version")
        .hasMessageContaining("Commit versions start at 0");
  }

  @Test
  void theRateLimitIsOffByDefaultAndNeverNegative() {
    assertThat(config().maxRowsPerSecond()).isZero();
    assertThat(config("max.rows.per.second", "200").maxRowsPerSecond()).isEqualTo(200);
    assertThatThrownBy(() -> config("max.rows.per.second", "-1"))
        .hasMessageContaining("max.rows.per.second");
  }

  @Test
  void singleSettingErrorsSayWhatIsValid() {
    assertThatThrownBy(() -> config("start.mode", "yesterday"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("snapshot, earliest, latest, version, timestamp");
    assertThatThrownBy(() -> config("start.version", "-1"))
        .hasMessageContaining("Commit versions start at 0");
    assertThatThrownBy(() -> config(DeltaCdfSourceConfig.TABLE_PATHS, " ").requireConsistent())
        .as("neither a table nor a root")
        .hasMessageContaining("List at least one Delta table");
    assertThatThrownBy(() -> config(DeltaCdfSourceConfig.TOPIC_TEMPLATE, "bad topic/${table}"))
        .hasMessageContaining("valid topic name");
    assertThatThrownBy(() -> config(DeltaCdfSourceConfig.KEY_COLUMNS_BY_TABLE, "orders"))
        .hasMessageContaining("table:col1,col2");
  }

  @Test
  void hadoopSettingsLoseTheirPrefix() {
    assertThat(config("hadoop.fs.s3a.endpoint", "http://127.0.0.1:9000").stores().hadoopSettings())
        .containsEntry("fs.s3a.endpoint", "http://127.0.0.1:9000");
  }

  @Test
  void recordSettingsAreParsedAndTheirConflictsReported() {
    RecordSettings settings =
        config(
                "record.format", "Envelope",
                "key.columns", "id",
                "change.types", "insert, DELETE",
                "temporal.precision.mode", "microseconds",
                "field.name.adjustment", "avro")
            .recordSettings("c", "1");
    assertThat(settings.format()).isEqualTo(RecordFormat.ENVELOPE);
    assertThat(settings.changeTypes())
        .containsExactlyInAnyOrder(ChangeType.INSERT, ChangeType.DELETE);
    assertThat(settings.temporalPrecision()).isEqualTo(TemporalPrecision.MICROSECONDS);
    assertThat(settings.fieldNameAdjustment()).isEqualTo(FieldNameAdjustment.AVRO);
    assertThat(settings.tombstonesOnDelete()).isTrue();

    Map<String, List<String>> keyless =
        config("record.format", "envelope", "key.columns.by.table", "orders:id")
            .crossFieldProblems();
    assertThat(keyless).containsOnlyKeys(DeltaCdfSourceConfig.KEY_COLUMNS);
    assertThat(keyless.get(DeltaCdfSourceConfig.KEY_COLUMNS).get(0))
        .contains("/data/customers")
        .contains("key.columns.by.table");
    assertThat(
            config(
                    "record.format",
                    "envelope",
                    "key.columns",
                    "id",
                    "record.metadata.fields",
                    "true")
                .crossFieldProblems())
        .containsOnlyKeys(DeltaCdfSourceConfig.METADATA_FIELDS);
    assertThatThrownBy(() -> config("change.types", "insert,upsert"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("update_postimage");
    assertThatThrownBy(() -> config("change.types", "")).isInstanceOf(ConfigException.class);
  }
}
