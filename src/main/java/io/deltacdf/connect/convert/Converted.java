package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangePosition;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The records one conversion yields, and the position the last of them carries as its offset, so
 * that the caller knows what it hands Connect without decoding an offset back.
 *
 * @param lastOffset the position the last record carries; null when there are no records
 */
public record Converted(List<SourceRecord> records, ChangePosition lastOffset) {

  static final Converted NONE = new Converted(List.of(), null);

  public boolean isEmpty() {
    return records.isEmpty();
  }
}
