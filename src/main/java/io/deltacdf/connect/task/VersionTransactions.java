package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.convert.OffsetEncoder;
import io.deltacdf.connect.convert.TransactionRecords;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The transaction metadata of one table's versions (provide.transaction.metadata=true): a BEGIN
 * event before the first record of each version that yields records, the version's transaction on
 * each of its records, and an END event with the counts after the last. Snapshot rows have none, as
 * in Debezium. The events go out in the same poll as the version's records, so exactly-once puts
 * them in the same transactions.
 *
 * <p>What it counts lives in memory: after a restart inside a version (a version split over several
 * transactions by transaction.max.rows, or without exactly-once), BEGIN is sent again and END
 * counts the events sent since the restart.
 */
final class VersionTransactions {

  /** With provide.transaction.metadata=false: no events, records as they are. */
  static final VersionTransactions NONE = new VersionTransactions(null, null, Set.of(), Map.of());

  private final TransactionRecords records;
  private final String dataCollection;
  private final Set<ChangeType> changeTypes;
  private final Map<String, ?> sourcePartition;

  /** The version being read, null between versions. */
  private Version open;

  /** With exactly-once, a copy of {@link #open} when the last transaction committed inside it. */
  private Version committed;

  /**
   * @param dataCollection the table's name in the events: its topic, which no other table has
   * @param changeTypes change.types: the change rows of other types reach no topic
   */
  VersionTransactions(
      TransactionRecords records,
      String dataCollection,
      Set<ChangeType> changeTypes,
      Map<String, ?> sourcePartition) {
    this.records = records;
    this.dataCollection = dataCollection;
    this.changeTypes = changeTypes;
    this.sourcePartition = sourcePartition;
  }

  /**
   * A change row is about to be converted, at {@code before}.
   *
   * @param operation the commitInfo operation of the row's version, null when it names none
   */
  void rowRead(ChangeRow row, ChangePosition before, String operation) {
    // A snapshot's last row ends in the next version: where a row starts tells its kind.
    if (records == null || before.inSnapshot()) {
      return;
    }
    if (open == null || open.transaction.commitVersion() != row.version()) {
      open =
          new Version(
              new TransactionRecords.Transaction(
                  dataCollection + ":" + row.version(),
                  dataCollection,
                  row.version(),
                  row.commitTimestampMs(),
                  operation),
              before);
    }
    if (row.type() == ChangeType.CUSTOM || changeTypes.contains(row.type())) {
      open.byChangeType.merge(row.label(), 1L, Long::sum);
    }
  }

  /**
   * {@code converted}, the records of the open version's rows, marked with its transaction, after
   * the BEGIN event when they are the first; as they are outside a version.
   *
   * @param offsets the offset that stores a position, for BEGIN: the version's start
   */
  List<SourceRecord> marked(List<SourceRecord> converted, OffsetEncoder offsets) {
    if (open == null || converted.isEmpty()) {
      return converted;
    }
    List<SourceRecord> out = new ArrayList<>(converted.size() + 1);
    if (!open.begun) {
      out.add(records.begin(open.transaction, sourcePartition, offsets.offsetOf(open.start)));
      open.begun = true;
    }
    for (SourceRecord record : converted) {
      if (record.value() != null) {
        open.events++;
      }
      out.add(records.mark(record, open.transaction.id(), open.events));
    }
    open.lastOffset = converted.get(converted.size() - 1).sourceOffset();
    return out;
  }

  /**
   * The open version ended: its END event, carrying the offset its last record carries, or null
   * when it yielded no record (or none is open).
   */
  SourceRecord versionEnded() {
    Version ended = open;
    open = null;
    committed = null;
    if (ended == null || !ended.begun) {
      return null;
    }
    return records.end(
        ended.transaction, ended.events, ended.byChangeType, sourcePartition, ended.lastOffset);
  }

  /** A transaction committed inside the open version: an abort returns here. */
  void committed() {
    committed = open == null ? null : open.copy();
  }

  /** The open transaction is aborted: back to what the last committed one held. */
  void rewind() {
    open = committed == null ? null : committed.copy();
  }

  /** The table starts over (a re-snapshot): nothing is open. */
  void clear() {
    open = null;
    committed = null;
  }

  /** What one version's transaction has sent so far. */
  private static final class Version {
    final TransactionRecords.Transaction transaction;

    /** Where the version's first row starts: BEGIN's offset, which replays the whole version. */
    final ChangePosition start;

    final Map<String, Long> byChangeType = new LinkedHashMap<>();
    boolean begun;
    long events;
    Map<String, ?> lastOffset;

    Version(TransactionRecords.Transaction transaction, ChangePosition start) {
      this.transaction = transaction;
      this.start = start;
    }

    Version copy() {
      Version copy = new Version(transaction, start);
      copy.byChangeType.putAll(byChangeType);
      copy.begun = begun;
      copy.events = events;
      copy.lastOffset = lastOffset;
      return copy;
    }
  }
}
