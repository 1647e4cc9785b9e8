package io.deltacdf.connect.delta.testing;

import io.delta.kernel.internal.deletionvectors.Base85Codec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * A deletion-vector table whose version 3 deletes a row of every file at once, as a predicate
 * DELETE on a table of many files does: version 2 adds {@code updates} files of {@value
 * HugeCommitTable#ROWS_PER_FILE} rows (every odd one with row 1 deleted already), version 3 removes
 * each and adds it again with row 0 deleted too, so it deletes one row per file. The removes come
 * first in path order and the adds after them in the reverse order: the protocol does not order a
 * commit's actions, so pairing them must not rely on where they are. Files are hard links as in
 * {@link HugeCommitTable}; the deletion vectors are inline, written by hand.
 */
public final class HugeDvCommitTable {

  /** The version that updates the deletion vector of every file. */
  public static final long VERSION = 3;

  private static final String ROW_0 = inlineDv(0);
  private static final String ROW_1 = inlineDv(1);
  private static final String ROWS_0_1 = inlineDv(0, 1);

  private HugeDvCommitTable() {}

  /** Writes the table at {@code table} (a folder that does not exist yet). */
  public static void create(Path table, int updates) throws IOException {
    Path log = Files.createDirectories(table.resolve("_delta_log"));
    Path parquet = table.resolve("rows.parquet");
    HugeCommitTable.writeParquet(parquet);
    long size = Files.size(parquet);
    HugeCommitTable.link(table, parquet, "a", updates);
    HugeCommitTable.writeCommit(
        log,
        0,
        writer ->
            writer.write(
                "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":"
                    + "[\"deletionVectors\"],\"writerFeatures\":[\"deletionVectors\","
                    + "\"changeDataFeed\"]}}\n"
                    + "{\"metaData\":{\"id\":\""
                    + UUID.randomUUID()
                    + "\",\"format\":{\"provider\":"
                    + "\"parquet\",\"options\":{}},\"schemaString\":\"{\\\"type\\\":\\\"struct\\\","
                    + "\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\","
                    + "\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\",\"partitionColumns\":[],"
                    + "\"configuration\":{\"delta.enableChangeDataFeed\":\"true\","
                    + "\"delta.enableDeletionVectors\":\"true\"},\"createdTime\":1}}\n"));
    HugeCommitTable.writeCommit(log, 1, writer -> writer.write(add("rows.parquet", size, null)));
    HugeCommitTable.writeCommit(
        log,
        2,
        writer -> {
          for (int i = 0; i < updates; i++) {
            writer.write(add(HugeCommitTable.name("a", i), size, i % 2 == 1 ? ROW_1 : null));
          }
        });
    HugeCommitTable.writeCommit(
        log,
        VERSION,
        writer -> {
          for (int i = 0; i < updates; i++) {
            writer.write(
                "{\"remove\":{\"path\":\""
                    + HugeCommitTable.name("a", i)
                    + "\",\"deletionTimestamp\":1,\"dataChange\":true,\"extendedFileMetadata\":true,"
                    + "\"partitionValues\":{},\"size\":"
                    + size
                    + dv(i % 2 == 1 ? ROW_1 : null)
                    + "}}\n");
          }
          for (int i = updates - 1; i >= 0; i--) {
            writer.write(add(HugeCommitTable.name("a", i), size, i % 2 == 1 ? ROWS_0_1 : ROW_0));
          }
        });
  }

  private static String add(String path, long size, String dv) {
    return "{\"add\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":"
        + size
        + ",\"modificationTime\":1,\"dataChange\":true"
        + dv(dv)
        + "}}\n";
  }

  /** The {@code deletionVector} field of an action, none for a null {@code inline}. */
  private static String dv(String inline) {
    return inline == null ? "" : ",\"deletionVector\":" + inline;
  }

  /**
   * An inline deletion vector of {@code rows} (each below 65,536) as Delta writes one: its magic
   * number, then a 64-bit Roaring bitmap of one 32-bit bitmap of one array container, Base85.
   */
  private static String inlineDv(int... rows) {
    ByteBuffer bytes = ByteBuffer.allocate(32 + 2 * rows.length).order(ByteOrder.LITTLE_ENDIAN);
    bytes.putInt(1681511377); // Delta's magic number
    bytes.putLong(1); // one 32-bit bitmap,
    bytes.putInt(0); // that of the high 32 bits 0:
    bytes.putInt(12346); // Roaring's cookie without run containers,
    bytes.putInt(1); // one container,
    bytes.putShort((short) 0); // of the high 16 bits 0,
    bytes.putShort((short) (rows.length - 1)); // its cardinality less one,
    bytes.putInt(16); // its offset in the bitmap,
    for (int row : rows) {
      bytes.putShort((short) row); // its values.
    }
    return "{\"storageType\":\"i\",\"pathOrInlineDv\":\""
        + Base85Codec.encodeBytes(bytes.array())
        + "\",\"sizeInBytes\":"
        + bytes.capacity()
        + ",\"cardinality\":"
        + rows.length
        + "}";
  }
}
