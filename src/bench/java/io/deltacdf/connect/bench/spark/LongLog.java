package io.deltacdf.connect.bench.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.deltacdf.connect.bench.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;

/**
 * A table with a long log, written fast: one Spark append in every {@value #CHECKPOINT_INTERVAL}
 * versions (Spark then writes the checkpoint, as delta.checkpointInterval asks), and the versions
 * in between as the commit files a blind append writes: a commitInfo like Spark's and one add
 * action of a data file (a hard link to a real 10-row Parquet file). Writing 10,000 versions
 * through Spark would take an hour; this takes about a minute and yields the same log.
 */
final class LongLog {

  static final int CHECKPOINT_INTERVAL = 100;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SparkSession spark;
  private final String path;
  private final Path log;

  LongLog(SparkSession spark, String path) {
    this.spark = spark;
    this.path = path;
    this.log = Path.of(path, "_delta_log");
  }

  /** Writes versions 0 to {@code versions - 1}. */
  void write(int versions) throws IOException {
    spark
        .sql(
            "CREATE TABLE delta.`"
                + path
                + "` ("
                + BenchTables.COLUMNS
                + ") USING delta"
                + " TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
                + " 'delta.enableDeletionVectors'='false',"
                + " 'delta.checkpointInterval'='"
                + CHECKPOINT_INTERVAL
                + "')")
        .collect();
    BenchTables.append(spark, path, 0, 10, 1);
    ObjectNode commitInfo = null;
    ObjectNode add = null;
    for (String line : Files.readAllLines(commitFile(1), StandardCharsets.UTF_8)) {
      JsonNode action = JSON.readTree(line);
      if (action.has("commitInfo")) {
        commitInfo = (ObjectNode) action;
      } else if (action.has("add")) {
        add = (ObjectNode) action;
      }
    }
    Path dataFile = Path.of(path, add.path("add").path("path").asText());
    long lastTimestamp = 0;
    for (int version = 2; version < versions; version++) {
      if (version % CHECKPOINT_INTERVAL == 0) {
        BenchTables.append(spark, path, version * 10L, version * 10L + 10, 1);
        continue;
      }
      lastTimestamp = Math.max(System.currentTimeMillis(), lastTimestamp + 1);
      String name = "part-bench-" + version + ".snappy.parquet";
      Files.createLink(Path.of(path, name), dataFile);
      writeCommit(version, commitInfo, add, name, lastTimestamp);
    }
    ChildJvm.result("versions", versions);
  }

  private void writeCommit(
      int version,
      ObjectNode commitInfoTemplate,
      ObjectNode addTemplate,
      String dataPath,
      long timestamp)
      throws IOException {
    ObjectNode commitInfo = commitInfoTemplate.deepCopy();
    ObjectNode info = (ObjectNode) commitInfo.get("commitInfo");
    info.put("timestamp", timestamp);
    if (info.has("inCommitTimestamp")) {
      info.put("inCommitTimestamp", timestamp);
    }
    info.put("readVersion", version - 1);
    info.put("txnId", UUID.randomUUID().toString());
    ObjectNode add = addTemplate.deepCopy();
    ((ObjectNode) add.get("add")).put("path", dataPath).put("modificationTime", timestamp);
    // Atomic, as a log store commits: a reader never sees half a commit file.
    Path temp = log.resolve("." + version + ".json.tmp");
    Files.writeString(
        temp,
        JSON.writeValueAsString(commitInfo) + "\n" + JSON.writeValueAsString(add) + "\n",
        StandardCharsets.UTF_8);
    Files.move(temp, commitFile(version), StandardCopyOption.ATOMIC_MOVE);
  }

  private Path commitFile(long version) {
    return log.resolve(String.format("%020d.json", version));
  }
}
