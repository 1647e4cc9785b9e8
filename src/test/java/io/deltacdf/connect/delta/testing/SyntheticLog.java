package io.deltacdf.connect.delta.testing;

import io.delta.kernel.Table;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;

/**
 * A table with a long history written in seconds: hand-written commit files (an append of one data
 * file each, the files themselves absent) and a Kernel checkpoint near the end, for tests that care
 * about the log, not the data.
 */
public final class SyntheticLog {

  private static final String SCHEMA =
      "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\","
          + "\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";

  private final Path log;
  private long nextVersion;

  private SyntheticLog(Path table) {
    this.log = table.resolve("_delta_log");
  }

  /**
   * Creates a change-data-feed table at {@code table} with versions 0 to {@code versions - 1} and a
   * checkpoint 10 versions before the last.
   */
  public static SyntheticLog create(Path table, int versions) throws IOException {
    SyntheticLog created = createTable(table);
    while (created.nextVersion < versions) {
      created.commit(
          "{\"add\":{\"path\":\"part-"
              + created.nextVersion
              + ".parquet\","
              + "\"partitionValues\":{},\"size\":1000,\"modificationTime\":"
              + System.currentTimeMillis()
              + ",\"dataChange\":true}}");
    }
    long checkpoint = Math.max(0, versions - 10);
    Engine engine = DefaultEngine.create(new Configuration());
    Table.forPath(engine, table.toString()).checkpoint(engine, checkpoint);
    return created;
  }

  /**
   * Creates a change-data-feed table at {@code table} with versions 0 to {@code versions - 1}, none
   * after the first changing rows (commit infos only) and no checkpoint: a long log that a reader
   * catches up on without reading data.
   */
  public static SyntheticLog createWithoutRows(Path table, int versions) throws IOException {
    SyntheticLog created = createTable(table);
    while (created.nextVersion < versions) {
      created.commit();
    }
    return created;
  }

  /** Version 0: a change-data-feed table of one {@code id} column. */
  private static SyntheticLog createTable(Path table) throws IOException {
    SyntheticLog created = new SyntheticLog(table);
    Files.createDirectories(created.log);
    created.commit(
        "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":4}}",
        "{\"metaData\":{\"id\":\""
            + UUID.randomUUID()
            + "\",\"format\":{\"provider\":"
            + "\"parquet\",\"options\":{}},\"schemaString\":\""
            + SCHEMA
            + "\","
            + "\"partitionColumns\":[],\"configuration\":{\"delta.enableChangeDataFeed\":\"true\"},"
            + "\"createdTime\":"
            + System.currentTimeMillis()
            + "}}");
    return created;
  }

  /** Commits the next version with {@code actions} (one JSON object each) and a commitInfo. */
  public void commit(String... actions) {
    StringBuilder content =
        new StringBuilder("{\"commitInfo\":{\"timestamp\":")
            .append(System.currentTimeMillis())
            .append(",\"operation\":\"WRITE\"}}\n");
    for (String action : actions) {
      content.append(action).append('\n');
    }
    try {
      Files.writeString(log.resolve(String.format("%020d.json", nextVersion)), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    nextVersion++;
  }
}
