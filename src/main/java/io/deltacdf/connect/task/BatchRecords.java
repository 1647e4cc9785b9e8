package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangeBatch;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.convert.Converted;
import io.deltacdf.connect.convert.RecordConverter;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns the batches a {@link TableStream} reads into the poll's records, notes in the {@link
 * TablePosition} how far they go, and ends transactions where they must end.
 */
final class BatchRecords {

  private final String table;
  private final TablePosition position;
  private final VersionTransactions versionTransactions;
  private final Redaction redaction;

  BatchRecords(
      String table,
      TablePosition position,
      VersionTransactions versionTransactions,
      Redaction redaction) {
    this.table = table;
    this.position = position;
    this.versionTransactions = versionTransactions;
    this.redaction = redaction;
  }

  /**
   * Adds the records of {@code batch} to the poll's {@code out}, and ends transactions where they
   * must end: at the end of a version, or once one holds transaction.max.rows records, but only
   * where no update image waits for its partner, so that the stored offset is exactly the position
   * after the last record. Returns true when this poll must end here: a transaction had to end
   * before any record of this poll, and Connect can end it only after the whole poll. A version's
   * BEGIN and END events (provide.transaction.metadata) go with its records, in its transactions.
   * {@code operation} is the commit's, null in a snapshot.
   */
  boolean emit(
      ChangeBatch batch,
      RecordConverter converter,
      String operation,
      TransactionBoundaries transactions,
      List<SourceRecord> out,
      long nowMs) {
    boolean endPoll = false;
    for (ChangeRow row : batch.rows()) {
      versionTransactions.rowRead(row, position.converted(), operation);
      hand(convert(converter, row, batch.schema()), transactions, out, nowMs);
      if (transactions.full() && converter.noImagesWaiting()) {
        endPoll = transactions.commit(out);
        versionTransactions.committed();
      }
    }
    if (batch.endsVersion()) {
      hand(converter.endVersion(position.converted()), transactions, out, nowMs);
      SourceRecord end = versionTransactions.versionEnded();
      if (end != null) {
        out.add(end);
        transactions.added(1);
      }
      if (transactions.open()) {
        endPoll = transactions.commit(out);
      }
    }
    return endPoll;
  }

  /** The records of the next row read from the feed, which starts where the last one ended. */
  private Converted convert(RecordConverter converter, ChangeRow row, FieldType.Struct rowSchema) {
    try {
      Converted records = converter.convert(row, position.converted(), rowSchema);
      position.convertedTo(row.after());
      return records;
    } catch (RuntimeException e) {
      throw new ConnectException(
          redaction.redact("Table " + table + " version " + row.version() + ": " + e.getMessage()),
          e);
    }
  }

  private void hand(
      Converted converted, TransactionBoundaries transactions, List<SourceRecord> out, long now) {
    if (!converted.isEmpty()) {
      List<SourceRecord> records =
          versionTransactions.marked(converted.records(), position::offsetOf);
      out.addAll(records);
      transactions.added(records.size());
      position.sent(converted.lastOffset(), now);
    }
  }
}
