package io.deltacdf.connect.delta;

import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.delta.derived.DiffSpill;
import java.util.List;

/**
 * How a feed turns versions into change rows.
 *
 * @param source whether rows come from the Change Data Feed, are derived, or either per version
 * @param keyColumns the key columns (logical names, possibly none) that pair a derived delete and
 *     insert of one key into an update
 * @param diffSpill when a derived version's diff leaves the heap for temp files
 */
record ChangeRules(ChangeSource source, List<String> keyColumns, DiffSpill diffSpill) {

  /** The setting users choose the source with, as error messages name it. */
  static final String SETTING = "change.source";

  static final ChangeRules CDF_ONLY =
      new ChangeRules(ChangeSource.CDF, List.of(), DiffSpill.defaults());

  ChangeRules {
    keyColumns = List.copyOf(keyColumns);
  }

  /** The same rules, diffing up to {@code rows} candidate rows of a version on the heap. */
  ChangeRules withDiffMemoryRows(int rows) {
    return new ChangeRules(source, keyColumns, new DiffSpill(rows, diffSpill.directory()));
  }

  /** Whether a version governed by {@code schema} is read from its change data (else derived). */
  boolean readsChangeData(TableSchema schema) {
    return switch (source) {
      case CDF -> true;
      case DERIVED -> false;
      case AUTO -> schema.changeDataFeedEnabled();
    };
  }
}
