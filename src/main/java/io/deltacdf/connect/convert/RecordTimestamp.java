package io.deltacdf.connect.convert;

/** Which time a data record carries as its Kafka record timestamp. */
public enum RecordTimestamp {
  /**
   * None of its own: the producer stamps the record when it sends it, as Spark's Kafka sink does
   * without a timestamp column. Time-based retention then counts from the send, so a table's old
   * commits are kept as long as new ones.
   */
  PRODUCER,
  /**
   * The commit's time ({@code _commit_timestamp}). Time-based retention counts from the commit: a
   * commit older than the topic's {@code retention.ms} is deleted at the broker's next retention
   * check, soon after it was sent.
   */
  COMMIT
}
