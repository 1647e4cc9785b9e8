package io.deltacdf.connect.delta.read;

import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.deltacdf.connect.change.ChangeType;
import io.deltacdf.connect.delta.errors.KernelErrors;
import io.deltacdf.connect.delta.plan.ChangeFile;
import io.deltacdf.connect.delta.table.FeedContext;
import io.deltacdf.connect.delta.table.TableSchema;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.schema.MessageType;

/**
 * The columns a {@link FileRowCursor} reads from one file, and where each lands in the batches
 * read: the data columns (none when only hidden columns are needed), the hidden columns a derived
 * version decides by, and a cdc file's {@code _change_type}.
 *
 * @param dataOrdinal per column of the table schema, its index in the batches; -1 for a partition
 *     column or one not read
 * @param hiddenOrdinal per hidden column, its index in the batches
 * @param changeTypeOrdinal the index of {@code _change_type}; -1 for a file that is not a cdc file
 */
record FileReadLayout(
    StructType readSchema, int[] dataOrdinal, int[] hiddenOrdinal, int changeTypeOrdinal) {

  static FileReadLayout of(
      FeedContext context,
      long version,
      ChangeFile file,
      String location,
      TableSchema schema,
      boolean valuesRead,
      List<String> hidden) {
    StructType readSchema =
        valuesRead ? dataReadSchema(context, version, file, location, schema) : new StructType();
    int[] dataOrdinal = new int[schema.columnCount()];
    int next = 0;
    for (int i = 0; i < dataOrdinal.length; i++) {
      dataOrdinal[i] = schema.isPartitionColumn(i) || !valuesRead ? -1 : next++;
    }
    int[] hiddenOrdinal = new int[hidden.size()];
    for (int i = 0; i < hiddenOrdinal.length; i++) {
      readSchema = readSchema.add(hidden.get(i), LongType.LONG);
      hiddenOrdinal[i] = next++;
    }
    int changeTypeOrdinal = -1;
    if (file.kind() == ChangeFile.Kind.CDC) {
      readSchema = readSchema.add(ChangeType.COLUMN, StringType.STRING);
      changeTypeOrdinal = next;
    }
    return new FileReadLayout(readSchema, dataOrdinal, hiddenOrdinal, changeTypeOrdinal);
  }

  /**
   * This layout narrowed to the data columns {@code columns} (indexes in the table schema; -1 and
   * partition columns read nothing) and a cdc file's {@code _change_type}, without hidden columns.
   */
  FileReadLayout narrowedTo(int[] columns) {
    StructType narrow = new StructType();
    int[] narrowOrdinal = new int[dataOrdinal.length];
    Arrays.fill(narrowOrdinal, -1);
    int next = 0;
    for (int column : columns) {
      if (column >= 0 && dataOrdinal[column] >= 0 && narrowOrdinal[column] < 0) {
        narrow = narrow.add(readSchema.at(dataOrdinal[column]));
        narrowOrdinal[column] = next++;
      }
    }
    int narrowChangeType = -1;
    if (changeTypeOrdinal >= 0) {
      narrow = narrow.add(readSchema.at(changeTypeOrdinal));
      narrowChangeType = next;
    }
    return new FileReadLayout(narrow, narrowOrdinal, new int[0], narrowChangeType);
  }

  /**
   * The data columns to read. Where variants may be shredded, the file's own schema (its footer)
   * says into which typed columns.
   */
  private static StructType dataReadSchema(
      FeedContext context, long version, ChangeFile file, String location, TableSchema schema) {
    if (!schema.hasVariants()) {
      return schema.physicalDataSchema(null);
    }
    try {
      MessageType fileSchema = ParquetFooters.schema(context.files(), location, file.size());
      return schema.physicalDataSchema(fileSchema);
    } catch (IOException | RuntimeException e) {
      throw KernelErrors.translate(context.table(), version, location, e);
    }
  }
}
