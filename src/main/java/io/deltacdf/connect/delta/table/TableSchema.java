package io.deltacdf.connect.delta.table;

import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.delta.kernel.TableMetadata;
import io.deltacdf.connect.delta.variant.VariantColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The table's shape at one version: logical and physical columns (those the column selection
 * keeps), partitioning, and whether the change data feed is on. Built once per metadata action,
 * shared by every file of the versions it governs.
 */
public final class TableSchema {

  public static final String CDF_PROPERTY = "delta.enableChangeDataFeed";

  private final TableMetadata metadata;
  private final FieldType.Struct logical;
  private final StructType physical;
  private final boolean[] partition;
  private final ValueReader[] readers;
  private final boolean variants;
  private final List<PartitionColumn> partitionColumns;

  /**
   * A partition column of the table, kept or not by the column selection (a row filter may name it
   * either way).
   */
  public record PartitionColumn(String name, String physicalName, FieldType type) {}

  private TableSchema(TableMetadata metadata, ColumnSelection columns) {
    this.metadata = metadata;
    ProjectedColumns kept =
        ProjectedColumns.of(metadata.schema(), metadata.physicalSchema(), columns);
    StructType schema = kept.logical();
    this.logical = KernelTypes.toStruct(schema);
    this.variants = VariantColumns.holdsVariant(schema);
    this.physical = kept.physical();
    Set<String> partitionColumns =
        metadata.partitionColumns().stream()
            .map(name -> name.toLowerCase(Locale.ROOT))
            .collect(Collectors.toSet());
    List<PartitionColumn> partitions = new ArrayList<>();
    StructType all = metadata.schema();
    for (int i = 0; i < all.length(); i++) {
      if (partitionColumns.contains(all.at(i).getName().toLowerCase(Locale.ROOT))) {
        partitions.add(
            new PartitionColumn(
                all.at(i).getName(),
                metadata.physicalSchema().at(i).getName(),
                KernelTypes.toStruct(new StructType().add(all.at(i))).fields().get(0).type()));
      }
    }
    this.partitionColumns = List.copyOf(partitions);
    this.partition = new boolean[schema.length()];
    this.readers = new ValueReader[schema.length()];
    for (int i = 0; i < schema.length(); i++) {
      partition[i] = partitionColumns.contains(schema.at(i).getName().toLowerCase(Locale.ROOT));
      readers[i] = ValueReader.forType(logical.fields().get(i).type());
    }
  }

  /** Every column of the table. */
  public static TableSchema of(TableMetadata metadata) {
    return new TableSchema(metadata, ColumnSelection.ALL);
  }

  /** The columns {@code columns} keeps. */
  public static TableSchema of(TableMetadata metadata, ColumnSelection columns) {
    return new TableSchema(metadata, columns);
  }

  /** The logical schema of the columns {@code columns} keeps of {@code schema}. */
  public static FieldType.Struct logicalOf(StructType schema, ColumnSelection columns) {
    return KernelTypes.toStruct(ProjectedColumns.logical(schema, columns));
  }

  public String tableId() {
    return metadata.id();
  }

  /** The whole metadata action, every column of it, whatever the column selection keeps. */
  public TableMetadata metadata() {
    return metadata;
  }

  public FieldType.Struct logical() {
    return logical;
  }

  public boolean changeDataFeedEnabled() {
    return Boolean.parseBoolean(metadata.configuration().getOrDefault(CDF_PROPERTY, "false"));
  }

  public int columnCount() {
    return readers.length;
  }

  /** Every partition column of the table, in schema order. */
  public List<PartitionColumn> partitionColumns() {
    return partitionColumns;
  }

  public boolean isPartitionColumn(int column) {
    return partition[column];
  }

  public ValueReader reader(int column) {
    return readers[column];
  }

  /** The name data files and partition values use for a column (differs under column mapping). */
  public String physicalName(int column) {
    return physical.at(column).getName();
  }

  /** Whether a column is or holds a variant, whose read schema depends on the file. */
  public boolean hasVariants() {
    return variants;
  }

  /**
   * The Parquet read schema for the non-partition columns of a file, in logical column order, with
   * each string as binary ({@link Utf8Columns}) and each variant as the group it is stored as in
   * that file.
   *
   * @param file the file's own schema, needed only when {@link #hasVariants()} (null otherwise)
   */
  public StructType physicalDataSchema(MessageType file) {
    StructType result = new StructType();
    for (int i = 0; i < partition.length; i++) {
      if (!partition[i]) {
        StructField field = physical.at(i);
        Type fileField =
            file != null && file.containsField(field.getName())
                ? file.getType(field.getName())
                : null;
        DataType read = Utf8Columns.readType(field.getDataType());
        result = result.add(field.withDataType(VariantColumns.readType(read, fileField)));
      }
    }
    return result;
  }
}
