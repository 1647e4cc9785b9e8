package io.deltacdf.connect.delta.table;

import io.deltacdf.connect.change.ChangeSource;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.spill.DiffSpill;
import java.util.List;

/**
 * How a feed turns versions into change rows.
 *
 * @param source whether rows come from the Change Data Feed, row tracking, are derived, or a mix
 *     per version
 * @param keyColumns the key columns (logical names, possibly none) that pair a derived delete and
 *     insert of one key into an update
 * @param diffSpill when a derived version's diff leaves the heap for temp files
 * @param planMemoryFiles the most file actions of one commit planned on the heap; a larger commit's
 *     files are read from its log as they are needed ({@link CommitPlanner})
 * @param columns the columns rows carry; the others are not read
 * @param rowFilter the partitions whose rows pass; files of the others are not read
 * @param shard the shard of the table whose rows the feed keeps; null: every row
 */
public record ChangeRules(
    ChangeSource source,
    List<String> keyColumns,
    DiffSpill diffSpill,
    int planMemoryFiles,
    ColumnSelection columns,
    RowFilter rowFilter,
    ShardRule shard) {

  /** The setting users choose the source with, as error messages name it. */
  public static final String SETTING = "change.source";

  /** By default, the most cdc and data file actions of one commit planned on the heap. */
  public static final int HELD_FILE_ACTIONS = 10_000;

  public static final ChangeRules CDF_ONLY =
      new ChangeRules(
          ChangeSource.CDF,
          List.of(),
          DiffSpill.defaults(),
          HELD_FILE_ACTIONS,
          ColumnSelection.ALL,
          RowFilter.ALL,
          null);

  public ChangeRules {
    keyColumns = List.copyOf(keyColumns);
  }

  /** The same rules, diffing up to {@code rows} candidate rows of a version on the heap. */
  public ChangeRules withDiffMemoryRows(int rows) {
    return withDiffSpill(new DiffSpill(rows, diffSpill.directory()));
  }

  /** The same rules, a derived version's diff spilling as {@code spill} says. */
  public ChangeRules withDiffSpill(DiffSpill spill) {
    return new ChangeRules(source, keyColumns, spill, planMemoryFiles, columns, rowFilter, shard);
  }

  /** The same rules, planning commits of up to {@code files} file actions on the heap. */
  public ChangeRules withPlanMemoryFiles(int files) {
    return new ChangeRules(source, keyColumns, diffSpill, files, columns, rowFilter, shard);
  }

  /** The same rules, reading changes from {@code changeSource} with {@code keys}. */
  public ChangeRules withChangeSource(ChangeSource changeSource, List<String> keys) {
    return new ChangeRules(
        changeSource, keys, diffSpill, planMemoryFiles, columns, rowFilter, shard);
  }

  /** The same rules, rows carrying only the columns {@code selection} keeps. */
  public ChangeRules withColumns(ColumnSelection selection) {
    return new ChangeRules(
        source, keyColumns, diffSpill, planMemoryFiles, selection, rowFilter, shard);
  }

  /** The same rules, reading only the partitions {@code filter} passes. */
  public ChangeRules withRowFilter(RowFilter filter) {
    return new ChangeRules(source, keyColumns, diffSpill, planMemoryFiles, columns, filter, shard);
  }

  /** The same rules, keeping only the rows of the shard {@code rule} names. */
  public ChangeRules withShard(ShardRule rule) {
    return new ChangeRules(
        source, keyColumns, diffSpill, planMemoryFiles, columns, rowFilter, rule);
  }

  /** The schema rows of a version governed by {@code metadata} are read with. */
  public TableSchema schemaOf(TableMetadata metadata) {
    return TableSchema.of(metadata, columns);
  }

  /** Whether a version governed by {@code schema} is read from its change data (else derived). */
  public boolean readsChangeData(TableSchema schema) {
    return switch (source) {
      case CDF -> true;
      case DERIVED, ROW_TRACKING -> false;
      case AUTO -> schema.changeDataFeedEnabled();
    };
  }

  /**
   * Whether a version not read from its change data pairs its rows by row id where the table has
   * row tracking (else by their values).
   */
  public boolean pairsByRowId() {
    return source == ChangeSource.ROW_TRACKING || source == ChangeSource.AUTO;
  }
}
