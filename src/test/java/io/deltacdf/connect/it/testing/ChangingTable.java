package io.deltacdf.connect.it.testing;

import static io.deltacdf.connect.testing.SparkHarness.spark;
import static io.deltacdf.connect.testing.SparkHarness.sql;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.spark.sql.Row;

/**
 * A Delta table (partitioned, deletion vectors and change data feed on) that a background thread of
 * the test JVM keeps changing through Spark SQL: small inserts, updates, deletes, MERGEs with all
 * three clauses, the odd OPTIMIZE, and now and then a large version of several thousand rows. Its
 * whole change feed, as Spark reads it, is the oracle for what a connector delivered.
 *
 * <p>Rows are {@code (id BIGINT, part INT, amount BIGINT, note STRING)} partitioned by {@code part
 * = id % 4}. Ids are never reused, so no two changes of the feed describe alike (same change type,
 * version and values): the feed is a set, which makes "lost" and "duplicated" unambiguous.
 *
 * <p>A table created with column mapping can {@link #renameNote() rename} {@code note} to {@value
 * #RENAMED_NOTE} once; the writes go on under the new name.
 */
public final class ChangingTable implements AutoCloseable {

  private static final int PARTS = 4;

  /** The name {@link #renameNote()} gives the {@code note} column. */
  public static final String RENAMED_NOTE = "remark";

  private final String path;
  private final Random random;
  private final int largeRows;
  private final Map<String, Integer> operations = new TreeMap<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile boolean stopping;
  private volatile boolean largeRequested;
  private final AtomicInteger largeWritten = new AtomicInteger();
  private Thread thread;
  private long nextId;
  private int sinceLarge;
  private volatile String note = "note";
  private volatile long renamedAt = -1;

  /** Creates the table (version 0, no rows). {@code largeRows}: rows of a large version. */
  public ChangingTable(String path, long seed, int largeRows) {
    this(path, seed, largeRows, false);
  }

  /** As {@link #ChangingTable(String, long, int)}, with column mapping by name if asked. */
  public ChangingTable(String path, long seed, int largeRows, boolean columnMapping) {
    this.path = path;
    this.random = new Random(seed);
    this.largeRows = largeRows;
    sql(
        "CREATE TABLE delta.`%s` (id BIGINT, part INT, amount BIGINT, note STRING) USING delta"
            + " PARTITIONED BY (part) TBLPROPERTIES ('delta.enableChangeDataFeed'='true',"
            + " 'delta.enableDeletionVectors'='true'%s)",
        path,
        columnMapping
            ? ", 'delta.columnMapping.mode'='name', 'delta.minReaderVersion'='2',"
                + " 'delta.minWriterVersion'='5'"
            : "");
  }

  /**
   * Renames {@code note} to {@value #RENAMED_NOTE} (a table with column mapping only, once).
   * Spark's batch change feed cannot read a range across the rename, so {@link #sparkChanges()}
   * reads the versions before it and those after it apart; the rename's own version has no rows.
   */
  public synchronized void renameNote() {
    if (renamedAt >= 0) {
      throw new IllegalStateException("note is already renamed");
    }
    sql("ALTER TABLE delta.`%s` RENAME COLUMN note TO %s", path, RENAMED_NOTE);
    note = RENAMED_NOTE;
    renamedAt = latestVersion();
    operations.merge("rename column", 1, Integer::sum);
  }

  public String path() {
    return path;
  }

  /** Writes {@code count} changes synchronously (e.g. some history before the connector). */
  public void write(int count) {
    for (int i = 0; i < count; i++) {
      writeOne();
    }
  }

  /**
   * Inserts {@code rows} new ids in one version, so that every large version that follows changes
   * about {@code largeRows} rows or more: a large update or merge only changes existing ones.
   */
  public synchronized void insertRows(int rows) {
    insert(rows);
    operations.merge("insert", 1, Integer::sum);
  }

  /** Starts the background writer; it pauses up to {@code maxPauseMs} between writes. */
  public void start(long maxPauseMs) {
    thread =
        new Thread(
            () -> {
              try {
                while (!stopping) {
                  writeOne();
                  if (maxPauseMs > 0) {
                    Thread.sleep(random.nextLong(maxPauseMs + 1));
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (Throwable e) {
                failure.set(e);
              }
            },
            "delta-writer");
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops the writer after its current write; rethrows what made it fail, if anything. */
  public void stop() {
    stopping = true;
    if (thread != null) {
      try {
        thread.join(120_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      if (thread.isAlive()) {
        throw new IllegalStateException("The writer did not stop");
      }
    }
    if (failure.get() != null) {
      throw new IllegalStateException("The background writer failed", failure.get());
    }
  }

  /**
   * Stops the writer without reporting its failure (for a test already failing): waits for the
   * write under way, so that the table's folder can be deleted.
   */
  @Override
  public void close() {
    stopping = true;
    if (thread != null) {
      try {
        thread.join(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Asks the background writer to make its next write a large one and waits until that is
   * committed, so that a test can act while a connector is busy with it.
   */
  public void writeLargeVersionNow(long timeoutMs) throws InterruptedException {
    int before = largeWritten.get();
    largeRequested = true;
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (largeWritten.get() == before && System.currentTimeMillis() < deadline) {
      if (failure.get() != null) {
        throw new IllegalStateException("The background writer failed", failure.get());
      }
      Thread.sleep(50);
    }
  }

  /**
   * Writes one large version now, in this thread (between the background writer's writes, if it
   * runs); returns its commit version.
   */
  public synchronized long writeLargeVersion() {
    operations.merge(large(), 1, Integer::sum);
    largeWritten.incrementAndGet();
    return latestVersion();
  }

  /** The writer's own failure so far, to fail fast while it runs. */
  public Throwable failure() {
    return failure.get();
  }

  /** How many writes of each kind were committed (a snapshot). */
  public synchronized Map<String, Integer> operations() {
    return new TreeMap<>(operations);
  }

  /**
   * Spark's change feed of every version, described as {@link #describe(ConsumerRecord)}, with the
   * tombstone that follows each delete of a table keyed by id.
   */
  public List<String> sparkChanges() {
    long renamed = renamedAt;
    if (renamed < 0) {
      return sparkChanges(0, -1);
    }
    List<String> changes = new ArrayList<>(sparkChanges(0, renamed - 1));
    if (latestVersion() > renamed) {
      changes.addAll(sparkChanges(renamed + 1, -1));
    }
    return changes;
  }

  /** Versions {@code from} to {@code to} (inclusive; -1: the latest). */
  private List<String> sparkChanges(long from, long to) {
    var reader =
        spark()
            .read()
            .format("delta")
            .option("readChangeFeed", "true")
            .option("startingVersion", from);
    if (to >= 0) {
      reader = reader.option("endingVersion", to);
    }
    return Tombstones.expected(reader.load(path).collectAsList(), this::describeChange);
  }

  private String describeChange(Row row) {
    return describe(
        row.getAs("_change_type"),
        row.<Long>getAs("_commit_version"),
        row.<Long>getAs("id"),
        row.<Integer>getAs("part"),
        row.<Long>getAs("amount"),
        noteOf(row));
  }

  /** The note column under the name it had in the row's version. */
  private static String noteOf(Row row) {
    boolean renamed = Arrays.asList(row.schema().fieldNames()).contains(RENAMED_NOTE);
    return row.getAs(renamed ? RENAMED_NOTE : "note");
  }

  /** The newest commit version of the table. */
  public long latestVersion() {
    return spark()
        .sql(String.format("DESCRIBE HISTORY delta.`%s` LIMIT 1", path))
        .first()
        .<Long>getAs("version");
  }

  /**
   * What a connector starting with a snapshot at {@code version} delivers, described as {@link
   * #describe(ConsumerRecord)}: every row of that version as an insert stamped with it, then
   * Spark's change feed of the later versions with the tombstone after each delete.
   */
  public List<String> sparkSnapshotThenChanges(long version) {
    List<String> expected = new ArrayList<>();
    spark()
        .read()
        .format("delta")
        .option("versionAsOf", version)
        .load(path)
        .collectAsList()
        .forEach(
            row ->
                expected.add(
                    describe(
                        "insert",
                        version,
                        row.<Long>getAs("id"),
                        row.<Integer>getAs("part"),
                        row.<Long>getAs("amount"),
                        noteOf(row))));
    if (latestVersion() > version) {
      List<Row> changes =
          spark()
              .read()
              .format("delta")
              .option("readChangeFeed", "true")
              .option("startingVersion", version + 1)
              .load(path)
              .collectAsList();
      expected.addAll(Tombstones.expected(changes, this::describeChange));
    }
    return expected;
  }

  /**
   * Reads {@code topic} until every change of {@code expected} (as {@link #describe} gives them)
   * has arrived at least once, then until no record arrived for {@code quietAfter}, so that
   * re-deliveries trailing them are read too; returns every record read.
   */
  public static List<ConsumerRecord<byte[], byte[]>> readEveryChange(
      String bootstrap,
      String topic,
      List<String> expected,
      Duration quietAfter,
      Duration timeout,
      boolean readCommitted) {
    Map<String, Integer> awaited = new HashMap<>();
    expected.forEach(c -> awaited.merge(c, 1, Integer::sum));
    return TopicReader.readUntil(
        bootstrap,
        topic,
        batch -> {
          for (ConsumerRecord<byte[], byte[]> record : batch) {
            awaited.computeIfPresent(describe(record), (k, n) -> n == 1 ? null : n - 1);
          }
          return awaited.isEmpty();
        },
        quietAfter,
        timeout,
        readCommitted);
  }

  /** A record of the topic (JsonConverter with schemas, Connect headers), described. */
  public static String describe(ConsumerRecord<byte[], byte[]> record) {
    if (record.value() == null) {
      return Tombstones.describe(record);
    }
    JsonNode value = TopicReader.jsonValue(record.value());
    JsonNode note = value.has("note") ? value.get("note") : value.get(RENAMED_NOTE);
    return describe(
        TopicReader.header(record, "_change_type"),
        TopicReader.longHeader(record, "_commit_version"),
        value.get("id").asLong(),
        value.get("part").isNull() ? null : value.get("part").asInt(),
        value.get("amount").isNull() ? null : value.get("amount").asLong(),
        note.isNull() ? null : note.asText());
  }

  private static String describe(
      String type, long version, Long id, Integer part, Long amount, String note) {
    return "v"
        + version
        + " "
        + type
        + " id="
        + id
        + " part="
        + part
        + " amount="
        + amount
        + " note="
        + note;
  }

  private synchronized void writeOne() {
    String kind;
    if (largeRequested || (++sinceLarge >= 8 && random.nextInt(3) == 0)) {
      largeRequested = false;
      sinceLarge = 0;
      kind = large();
      largeWritten.incrementAndGet();
    } else {
      kind = small();
    }
    operations.merge(kind, 1, Integer::sum);
  }

  private String small() {
    int choice = random.nextInt(100);
    if (nextId < 50 || choice < 30) {
      insert(1 + random.nextInt(50));
      return "insert";
    }
    if (choice < 50) {
      long[] range = existingRange(200);
      sql(
          "UPDATE delta.`%s` SET amount = amount + 1, %s = concat(%s, 'u')"
              + " WHERE id >= %d AND id < %d AND id %% %d = %d",
          path, note, note, range[0], range[1], 3, random.nextInt(3));
      return "update";
    }
    if (choice < 65) {
      long[] range = existingRange(100);
      sql(
          "DELETE FROM delta.`%s` WHERE id >= %d AND id < %d AND id %% %d = %d",
          path, range[0], range[1], 4, random.nextInt(4));
      return "delete";
    }
    if (choice < 97) {
      // Half old ids (updated or deleted), half new ones (inserted).
      int width = 10 + random.nextInt(60);
      merge(Math.max(0, nextId - width / 2), nextId + width / 2);
      return "merge";
    }
    sql("OPTIMIZE delta.`%s`", path);
    return "optimize";
  }

  private String large() {
    switch (random.nextInt(3)) {
      case 0:
        insert(largeRows);
        return "large insert";
      case 1:
        long from = Math.max(0, nextId - largeRows / 2);
        merge(from, from + largeRows);
        return "large merge";
      default:
        long[] range = existingRange(largeRows);
        sql(
            "UPDATE delta.`%s` SET amount = amount * 2, %s = concat(%s, 'U')"
                + " WHERE id >= %d AND id < %d",
            path, note, note, range[0], range[1]);
        return "large update";
    }
  }

  private void insert(int rows) {
    sql(
        "INSERT INTO delta.`%s` SELECT id, CAST(id %% %d AS INT), id * 10, concat('n', id)"
            + " FROM range(%d, %d)",
        path, PARTS, nextId, nextId + rows);
    nextId += rows;
  }

  private void merge(long from, long to) {
    sql(
        "MERGE INTO delta.`%s` t USING (SELECT id, CAST(id %% %d AS INT) AS part, id * 7 AS amount,"
            + " concat('m', id) AS %s FROM range(%d, %d)) s ON t.id = s.id"
            + " WHEN MATCHED AND s.id %% 5 = 0 THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET amount = s.amount + t.amount, %s = concat(t.%s, 'M')"
            + " WHEN NOT MATCHED THEN INSERT *",
        path, PARTS, note, from, to, note, note);
    nextId = Math.max(nextId, to);
  }

  /** A random [from, to) of at most {@code width} among the ids written so far. */
  private long[] existingRange(int width) {
    long from = random.nextLong(Math.max(1, nextId - width / 2));
    return new long[] {from, Math.min(nextId, from + width)};
  }
}
