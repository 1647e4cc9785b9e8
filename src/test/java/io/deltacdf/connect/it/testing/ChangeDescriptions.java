package io.deltacdf.connect.it.testing;

import static io.deltacdf.connect.testing.SparkHarness.spark;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.sql.Row;

/**
 * One text per change, alike for a record of the topic (its headers and JSON value) and for a row
 * of Spark's change feed, so that a test compares the two as multisets: {@code "<change type>
 * v<version> @<commit ms> <column>=<value> ..."} for the columns a test names. Tombstones are
 * described by {@link Tombstones}.
 */
public final class ChangeDescriptions {

  private ChangeDescriptions() {}

  /** The records, in their order; tombstones as {@link Tombstones#describe}. */
  public static List<String> ofRecords(
      List<ConsumerRecord<byte[], byte[]>> records, String... columns) {
    return records.stream().map(record -> ofRecord(record, columns)).toList();
  }

  /**
   * Spark's change feed of the table from {@code fromVersion} on, with the tombstone that follows
   * each delete of a table keyed by {@code id}.
   */
  public static List<String> ofSparkFeed(String path, long fromVersion, String... columns) {
    return Tombstones.expected(sparkFeed(path, fromVersion), row -> ofSparkRow(row, columns));
  }

  /** Spark's change feed of the table from {@code fromVersion} on, without tombstones. */
  public static List<String> ofSparkFeedWithoutTombstones(
      String path, long fromVersion, String... columns) {
    return sparkFeed(path, fromVersion).stream().map(row -> ofSparkRow(row, columns)).toList();
  }

  /**
   * Spark's change feed of the table from {@code fromVersion} up to and including {@code toVersion}
   * (its endingVersion), without tombstones.
   */
  public static List<String> ofSparkFeedWithoutTombstones(
      String path, long fromVersion, long toVersion, String... columns) {
    return sparkFeed(path, fromVersion, toVersion).stream()
        .map(row -> ofSparkRow(row, columns))
        .toList();
  }

  private static String ofRecord(ConsumerRecord<byte[], byte[]> record, String... columns) {
    if (record.value() == null) {
      return Tombstones.describe(record);
    }
    JsonNode value = TopicReader.jsonValue(record.value());
    StringBuilder text =
        new StringBuilder(
            String.format(
                "%s v%d @%d",
                TopicReader.header(record, "_change_type"),
                TopicReader.longHeader(record, "_commit_version"),
                TopicReader.longHeader(record, "_commit_timestamp")));
    for (String column : columns) {
      text.append(' ').append(column).append('=').append(value.get(column).asText());
    }
    return text.toString();
  }

  private static String ofSparkRow(Row row, String... columns) {
    StringBuilder text =
        new StringBuilder(
            String.format(
                "%s v%d @%d",
                row.<String>getAs("_change_type"),
                row.<Long>getAs("_commit_version"),
                row.<Instant>getAs("_commit_timestamp").toEpochMilli()));
    for (String column : columns) {
      text.append(' ').append(column).append('=').append(String.valueOf(row.<Object>getAs(column)));
    }
    return text.toString();
  }

  private static List<Row> sparkFeed(String path, long fromVersion) {
    return spark()
        .read()
        .format("delta")
        .option("readChangeFeed", "true")
        .option("startingVersion", fromVersion)
        .load(path)
        .collectAsList();
  }

  private static List<Row> sparkFeed(String path, long fromVersion, long toVersion) {
    return spark()
        .read()
        .format("delta")
        .option("readChangeFeed", "true")
        .option("startingVersion", fromVersion)
        .option("endingVersion", toVersion)
        .load(path)
        .collectAsList();
  }
}
