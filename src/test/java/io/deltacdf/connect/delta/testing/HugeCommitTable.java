package io.deltacdf.connect.delta.testing;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * A change-data-feed table whose version 3 replaces every file of the table at once, as an INSERT
 * OVERWRITE of a huge table does: version 2 adds {@code files / 2} files, version 3 removes them
 * and adds as many others. Every file is a hard link to one Parquet file of {@value #ROWS_PER_FILE}
 * rows (one copy per folder of {@value #FILES_PER_FOLDER}), so a million files cost no data; the
 * log is written by hand.
 */
public final class HugeCommitTable {

  /** The rows of each file. */
  public static final int ROWS_PER_FILE = 2;

  /** The version that removes and adds every file. */
  public static final long VERSION = 3;

  /** Files per folder, all links to one copy of the Parquet file. */
  private static final int FILES_PER_FOLDER = 50_000;

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType("message spark_schema { optional int64 id; }");

  private HugeCommitTable() {}

  /** Writes the table at {@code table} (a folder that does not exist yet). */
  public static void create(Path table, int files) throws IOException {
    Path log = Files.createDirectories(table.resolve("_delta_log"));
    Path parquet = table.resolve("rows.parquet");
    writeParquet(parquet);
    long size = Files.size(parquet);
    int half = files / 2;
    link(table, parquet, "a", half);
    link(table, parquet, "b", half);
    writeCommit(
        log,
        0,
        writer ->
            writer.write(
                "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":4}}\n"
                    + "{\"metaData\":{\"id\":\""
                    + UUID.randomUUID()
                    + "\",\"format\":{\"provider\":"
                    + "\"parquet\",\"options\":{}},\"schemaString\":\"{\\\"type\\\":\\\"struct\\\","
                    + "\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\","
                    + "\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\",\"partitionColumns\":[],"
                    + "\"configuration\":{\"delta.enableChangeDataFeed\":\"true\"},\"createdTime\":1}}\n"));
    writeCommit(log, 1, writer -> writer.write(add("rows.parquet", size)));
    writeCommit(
        log,
        2,
        writer -> {
          for (int i = 0; i < half; i++) {
            writer.write(add(name("a", i), size));
          }
        });
    writeCommit(
        log,
        VERSION,
        writer -> {
          for (int i = 0; i < half; i++) {
            writer.write(
                "{\"remove\":{\"path\":\""
                    + name("a", i)
                    + "\",\"deletionTimestamp\":1,"
                    + "\"dataChange\":true,\"extendedFileMetadata\":true,\"partitionValues\":{},"
                    + "\"size\":"
                    + size
                    + "}}\n");
          }
          for (int i = 0; i < half; i++) {
            writer.write(add(name("b", i), size));
          }
        });
  }

  public interface Lines {
    void write(BufferedWriter writer) throws IOException;
  }

  public static void writeCommit(Path log, long version, Lines lines) throws IOException {
    Path commit = log.resolve(String.format("%020d.json", version));
    try (BufferedWriter writer = Files.newBufferedWriter(commit, StandardCharsets.UTF_8)) {
      writer.write(
          "{\"commitInfo\":{\"timestamp\":"
              + (1_700_000_000_000L + version)
              + ",\"operation\":\"WRITE\"}}\n");
      lines.write(writer);
    }
  }

  public static void writeParquet(Path parquet) throws IOException {
    Configuration configuration = new Configuration();
    SimpleGroupFactory rows = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<org.apache.parquet.example.data.Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(parquet.toUri()))
            .withConf(configuration)
            .withType(SCHEMA)
            .build()) {
      for (long id = 0; id < ROWS_PER_FILE; id++) {
        writer.write(rows.newGroup().append("id", id));
      }
    }
  }

  private static String add(String path, long size) {
    return "{\"add\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":"
        + size
        + ",\"modificationTime\":1,\"dataChange\":true}}\n";
  }

  public static void link(Path table, Path parquet, String prefix, int count) throws IOException {
    Path source = parquet;
    for (int i = 0; i < count; i++) {
      if (i % FILES_PER_FOLDER == 0) {
        // ext4 allows 65,000 links to a file, and about 500,000 entries in a folder.
        Path folder = Files.createDirectories(table.resolve(name(prefix, i)).getParent());
        source = Files.copy(parquet, folder.resolve("rows.parquet"));
      }
      Files.createLink(table.resolve(name(prefix, i)), source);
    }
  }

  /** The path of file {@code index}, in a folder of its own per {@value #FILES_PER_FOLDER}. */
  public static String name(String prefix, int index) {
    return String.format("%s%02d/%s-%07d.parquet", prefix, index / FILES_PER_FOLDER, prefix, index);
  }
}
