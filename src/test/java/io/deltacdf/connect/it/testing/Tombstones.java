package io.deltacdf.connect.it.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.sql.Row;

/**
 * The tombstones a keyed table's topic holds (one after each delete, key {@code id}), described
 * alike on both sides of a comparison with Spark's change feed.
 */
public final class Tombstones {

  private Tombstones() {}

  /** A tombstone record (null value) of the topic, described. */
  public static String describe(ConsumerRecord<byte[], byte[]> record) {
    return describe(
        TopicReader.longHeader(record, "_commit_version"),
        TopicReader.jsonKey(record.key()).get("id").asLong());
  }

  /** Spark's change rows, each described, with the tombstone after each delete. */
  public static List<String> expected(List<Row> changeRows, Function<Row, String> describe) {
    List<String> changes = new ArrayList<>();
    for (Row row : changeRows) {
      changes.add(describe.apply(row));
      if (row.getAs("_change_type").equals("delete")) {
        changes.add(describe(row.<Long>getAs("_commit_version"), row.<Long>getAs("id")));
      }
    }
    return changes;
  }

  private static String describe(long version, long id) {
    // Version first, as FeedCheck reads it from every description.
    return String.format("v%d tombstone id=%d", version, id);
  }
}
