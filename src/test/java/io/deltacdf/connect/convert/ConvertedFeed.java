package io.deltacdf.connect.convert;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.ChangeRow;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.change.LoggedSchema;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Drives a {@link RecordConverter} as a table's stream does: each row starts where the one before
 * it ended, the first where the feed starts.
 */
final class ConvertedFeed {

  private final RecordConverter converter;
  private ChangePosition converted;

  ConvertedFeed(RecordConverter converter, ChangePosition start) {
    this.converter = converter;
    this.converted = start;
  }

  List<SourceRecord> convert(ChangeRow row, FieldType.Struct schema) {
    Converted records = converter.convert(row, converted, schema);
    converted = row.after();
    return records.records();
  }

  List<SourceRecord> endVersion() {
    return converter.endVersion(converted).records();
  }

  boolean settled() {
    return converter.settled();
  }

  boolean noImagesWaiting() {
    return converter.noImagesWaiting();
  }

  void requireConvertible(List<LoggedSchema> ends, Supplier<List<LoggedSchema>> wholeLog) {
    converter.requireConvertible(ends, wholeLog);
  }
}
