package io.deltacdf.connect.it.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.deltacdf.connect.change.ChangePosition;
import io.deltacdf.connect.delta.DeltaChangeFeed;
import io.deltacdf.connect.delta.DeltaTable;
import io.deltacdf.connect.it.storage.testing.S3Gate;
import io.deltacdf.connect.testing.Closing;
import io.deltacdf.connect.testing.S3Mock;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A reader catching up on a long log on S3 (S3Mock behind a gate that counts requests) lists it
 * from where it is with {@code StartAfter}, a page at a time, and stops after each run of commits:
 * twice the versions cost about twice the list requests, where listing every run to the end of the
 * log cost four times as many.
 *
 * <p>CI reads 600 and 1,200 versions with pages of 100 names; {@code -Dhuge.log.s3.versions=N} sets
 * the larger size.
 */
class S3CatchUpIT {

  private static final String BUCKET = "catch-up";
  private static final int VERSIONS = Integer.getInteger("huge.log.s3.versions", 1_200);

  private static S3Mock s3;
  private static S3Gate gate;
  private static final Map<String, String> settings = new HashMap<>();

  @BeforeAll
  static void start() {
    s3 = S3Mock.start(BUCKET);
    gate = S3Gate.start(s3.endpoint());
    settings.putAll(s3.hadoopSettings());
    settings.put("fs.s3a.paging.maximum", "100");
  }

  @AfterAll
  static void stop() {
    Closing.inOrder(gate, s3);
  }

  @Test
  void listRequestsGrowWithTheVersionsRead() throws IOException {
    int half = catchUp("half", VERSIONS / 2);
    int full = catchUp("full", VERSIONS);
    System.out.printf(
        "S3CatchUpIT: list requests catching up %,d versions: %d; %,d: %d%n",
        VERSIONS / 2, half, VERSIONS, full);
    assertThat(full).isPositive().isLessThanOrEqualTo(2 * half + 4);
  }

  /** The list requests of reading a log of {@code versions} versions from version 0. */
  private static int catchUp(String name, int versions) throws IOException {
    String root = "s3a://" + BUCKET + "/" + name;
    writeLog(root, versions);
    Map<String, String> throughGate = new HashMap<>(settings);
    throughGate.put("fs.s3a.endpoint", gate.endpoint());
    try (DeltaTable table = DeltaTable.open(root, throughGate, false);
        DeltaChangeFeed feed = table.openFeed(ChangePosition.InVersion.start(0))) {
      int before = gate.listRequests();
      while (feed.next(1_000) != null) {
        // versions without rows: nothing to collect
      }
      assertThat(feed.position()).isEqualTo(ChangePosition.InVersion.start(versions));
      return gate.listRequests() - before;
    }
  }

  /** A change-data-feed table whose versions after the first change no rows. */
  private static void writeLog(String root, int versions) throws IOException {
    Configuration configuration = new Configuration();
    settings.forEach(configuration::set);
    try (FileSystem fs = FileSystem.newInstance(URI.create(root), configuration)) {
      write(
          fs,
          root,
          0,
          "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":4}}\n"
              + "{\"metaData\":{\"id\":\""
              + UUID.randomUUID()
              + "\",\"format\":{\"provider\":"
              + "\"parquet\",\"options\":{}},\"schemaString\":\"{\\\"type\\\":\\\"struct\\\","
              + "\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\","
              + "\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\",\"partitionColumns\":[],"
              + "\"configuration\":{\"delta.enableChangeDataFeed\":\"true\"},\"createdTime\":1}}\n");
      for (int version = 1; version < versions; version++) {
        write(fs, root, version, "");
      }
    }
  }

  private static void write(FileSystem fs, String root, long version, String actions)
      throws IOException {
    Path commit = new Path(root + "/_delta_log/" + String.format("%020d.json", version));
    try (FSDataOutputStream out = fs.create(commit)) {
      out.write(
          ("{\"commitInfo\":{\"timestamp\":"
                  + (1_700_000_000_000L + version)
                  + ",\"operation\":\"WRITE\"}}\n"
                  + actions)
              .getBytes(StandardCharsets.UTF_8));
    }
  }
}
