package io.deltacdf.connect.task;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.change.HiddenColumnsTracker;
import io.deltacdf.connect.change.LoggedSchema;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import io.deltacdf.connect.config.TableNames;
import io.deltacdf.connect.convert.RecordConverter;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.delta.LatestSnapshot;
import io.deltacdf.connect.offset.TablePartition;
import java.util.List;

/** Makes each table's record converter, as configured, once its rows are known to convert. */
public final class TableConverters {

  private final DeltaCdfSourceConfig config;
  private final String connectorName;
  private final String connectorVersion;

  public TableConverters(
      DeltaCdfSourceConfig config, String connectorName, String connectorVersion) {
    this.config = config;
    this.connectorName = connectorName;
    this.connectorVersion = connectorVersion;
  }

  /**
   * The converter of the rows of {@code partition} from {@code start} on, once it has checked that
   * they convert, up to the table's {@code latest} snapshot.
   *
   * @throws IllegalArgumentException naming the column at fault (a {@link
   *     io.deltacdf.connect.convert.MaskTypeException} for a mask on a column it cannot mask)
   */
  RecordConverter checked(
      TablePartition partition,
      DeltaTable deltaTable,
      ChangePosition start,
      LatestSnapshot latest,
      HiddenColumnsTracker hidden) {
    return checked(
        partition, deltaTable, deltaTable.schemasAtStartAndLatest(start, latest), hidden);
  }

  /**
   * As above, with the schemas at the start and the latest one already read ({@link
   * DeltaTable#schemasAtStartAndLatest}), its masks sharing {@code hidden} with the table's column
   * selection: a column masked before keeps its mask under a new name.
   */
  public RecordConverter checked(
      TablePartition partition,
      DeltaTable deltaTable,
      List<LoggedSchema> ends,
      HiddenColumnsTracker hidden) {
    String table = partition.table();
    RecordConverter converter =
        new RecordConverter(
            table,
            TableNames.nameOf(table),
            config.topicFor(table),
            partition.toMap(),
            config.keyColumnsFor(table),
            config.recordSettings(connectorName, connectorVersion),
            config.columnMasksFor(table).following(hidden));
    converter.requireConvertible(ends, deltaTable::loggedSchemas);
    return converter;
  }
}
