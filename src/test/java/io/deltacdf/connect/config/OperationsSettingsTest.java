package io.deltacdf.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.deltacdf.connect.config.OperationsSettings.NotificationChannel;
import io.deltacdf.connect.testing.ConnectorConfig;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The signal and notification settings, and what validation says of them. */
class OperationsSettingsTest {

  @Test
  void aKafkaSignalChannelNeedsItsTopicAndClusterAndTakesConsumerSettings() {
    DeltaCdfSourceConfig missing =
        new DeltaCdfSourceConfig(
            ConnectorConfig.forTables("/t").with("signal.enabled.channels", "Kafka").build());
    assertThat(missing.crossFieldProblems())
        .containsKeys(OperationsSettings.SIGNAL_TOPIC, OperationsSettings.SIGNAL_BOOTSTRAP_SERVERS);

    DeltaCdfSourceConfig complete =
        new DeltaCdfSourceConfig(
            ConnectorConfig.forTables("/t")
                .with("signal.enabled.channels", "kafka")
                .with("signal.kafka.topic", "signals")
                .with("signal.kafka.bootstrap.servers", "broker:9092")
                .with("signal.consumer.security.protocol", "SASL_SSL")
                .with("signal.consumer.group.id", "ignored")
                .build());
    assertThat(complete.crossFieldProblems()).isEmpty();
    assertThat(complete.signalConsumer())
        .containsEntry("bootstrap.servers", "broker:9092")
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("enable.auto.commit", "false")
        .doesNotContainKey("group.id");
    assertThat(new DeltaCdfSourceConfig(ConnectorConfig.forTables("/t").build()).signalConsumer())
        .as("no channel, no consumer")
        .isNull();
  }

  @Test
  void theSinkChannelNeedsItsTopicAndUnknownChannelsAreRefused() {
    DeltaCdfSourceConfig sink =
        new DeltaCdfSourceConfig(
            ConnectorConfig.forTables("/t")
                .with("notification.enabled.channels", "sink,JMX")
                .build());
    assertThat(sink.notificationChannels())
        .containsExactly(NotificationChannel.SINK, NotificationChannel.JMX);
    assertThat(sink.crossFieldProblems()).containsKey(OperationsSettings.NOTIFICATION_TOPIC);
    assertThatThrownBy(
            () ->
                new DeltaCdfSourceConfig(
                    ConnectorConfig.forTables("/t")
                        .with("notification.enabled.channels", "email")
                        .build()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("List none or more of sink, log, jmx");
  }
}
