package io.deltacdf.connect.testing;

import static io.deltacdf.connect.testing.SparkHarness.sql;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * Builds CDF-enabled Delta tables with Spark and applies a random, seed-determined sequence of
 * commits to them. Each run returns a {@link Description} that replays the run in a SQL shell.
 */
public final class RandomWorkload {

  /** Table-level choices of one run. {@code partitionType} is null for an unpartitioned table. */
  public record Options(
      boolean deletionVectors,
      String columnMapping,
      ColumnType partitionType,
      boolean inCommitTimestamps,
      int checkpointInterval) {}

  /** One applied statement and the table version after it (unchanged if it committed nothing). */
  public record Step(String operation, String sql, long version) {}

  public record Description(long seed, String path, Options options, List<Step> steps) {
    public long latestVersion() {
      return steps.get(steps.size() - 1).version();
    }

    /** A script that recreates the table: the options, then each statement with its version. */
    @Override
    public String toString() {
      StringBuilder out =
          new StringBuilder("-- RandomWorkload seed=" + seed + " " + options + "\n");
      steps.forEach(
          s ->
              out.append("-- v")
                  .append(s.version())
                  .append(' ')
                  .append(s.operation())
                  .append('\n')
                  .append(s.sql())
                  .append(";\n"));
      return out.toString();
    }
  }

  private static final String PART = "part";

  private final long seed;
  private final Random random;
  private final String table;
  private final Options options;
  private final Map<String, ColumnType> columns = new LinkedHashMap<>();
  private final List<String> partitionValues = new ArrayList<>();
  private final List<Step> steps = new ArrayList<>();
  private final String path;
  private final Map<String, String> extraProperties;
  private long nextId = 1;
  private int addedColumns;

  private RandomWorkload(long seed, Path baseDir, Map<String, String> extraProperties) {
    this.seed = seed;
    this.extraProperties = extraProperties;
    // java.util.Random's first draws barely differ for nearby seeds (seeds 1..40 all chose DVs on).
    random = new Random(new SplittableRandom(seed).nextLong());
    path = baseDir.resolve("workload-" + seed).toAbsolutePath().toString();
    table = "delta.`" + path + "`";
    options =
        new Options(
            random.nextBoolean(),
            List.of("none", "none", "name", "id").get(random.nextInt(4)),
            random.nextInt(5) < 3
                ? ColumnType.PARTITION_TYPES.get(random.nextInt(ColumnType.PARTITION_TYPES.size()))
                : null,
            random.nextBoolean(),
            random.nextInt(3) == 0 ? 3 : 0);
  }

  /** Creates table {@code baseDir/workload-<seed>} and applies 6 to 12 random commits to it. */
  public static Description run(long seed, Path baseDir) {
    return run(seed, baseDir, Map.of());
  }

  /**
   * As {@link #run(long, Path)}, the table created with {@code extraProperties} too (such as {@code
   * delta.enableRowTracking}); the random choices are the same as without them.
   */
  public static Description run(long seed, Path baseDir, Map<String, String> extraProperties) {
    RandomWorkload workload = new RandomWorkload(seed, baseDir, extraProperties);
    try {
      workload.create();
      workload.apply("INSERT", workload.insert(5 + workload.random.nextInt(4)));
      for (int i = 5 + workload.random.nextInt(7); i > 0; i--) {
        workload.randomOperation();
      }
    } catch (Exception e) { // Spark's AnalysisException is checked in Java's eyes
      throw new IllegalStateException("Workload failed; replay:\n" + workload.describe(), e);
    }
    return workload.describe();
  }

  /**
   * A fixed scenario on a column-mapping (name) table at {@code tableDir}: insert, rename a column,
   * insert and update, drop a column, update and delete.
   *
   * @return the versions of the RENAME COLUMN and DROP COLUMN commits
   */
  public static List<Long> renameAndDrop(Path tableDir) {
    String t = "delta.`" + tableDir.toAbsolutePath() + "`";
    sql(
        "CREATE TABLE %s (id BIGINT, name STRING, score INT, note STRING) USING delta TBLPROPERTIES ("
            + "'delta.enableChangeDataFeed'='true', 'delta.enableDeletionVectors'='true', "
            + "'delta.columnMapping.mode'='name', 'delta.minReaderVersion'='2', 'delta.minWriterVersion'='5')",
        t);
    sql(
        "INSERT INTO %s VALUES (1, 'ann', 10, 'a'), (2, 'bob', 20, 'b'), (3, 'cy', 30, NULL), (4, 'dee', NULL, 'd')",
        t);
    sql("ALTER TABLE %s RENAME COLUMN name TO full_name", t);
    long renamed = SparkOracle.latestVersion(tableDir.toString());
    sql("INSERT INTO %s VALUES (5, 'eve', 50, 'e'), (6, NULL, 60, 'f')", t);
    sql("UPDATE %s SET full_name = 'bobby', score = 21 WHERE id = 2", t);
    sql("ALTER TABLE %s DROP COLUMN score", t);
    long dropped = SparkOracle.latestVersion(tableDir.toString());
    sql("UPDATE %s SET note = 'x' WHERE id IN (3, 5)", t);
    sql("DELETE FROM %s WHERE id = 1", t);
    return List.of(renamed, dropped);
  }

  private Description describe() {
    return new Description(seed, path, options, List.copyOf(steps));
  }

  private void apply(String operation, String statement) {
    sql(statement);
    steps.add(new Step(operation, statement, SparkOracle.latestVersion(path)));
  }

  private void create() {
    List<ColumnType> types = new ArrayList<>(Arrays.asList(ColumnType.values()));
    Collections.shuffle(types, random);
    types
        .subList(0, 6 + random.nextInt(types.size() - 5))
        .forEach(type -> columns.put(columnName("c_" + type.name().toLowerCase()), type));
    StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (`id` BIGINT");
    columns.forEach(
        (name, type) -> ddl.append(", ").append(q(name)).append(' ').append(type.sql()));
    if (options.partitionType() != null) {
      columns.put(PART, options.partitionType());
      ddl.append(", ").append(q(PART)).append(' ').append(options.partitionType().sql());
      while (partitionValues.size() < 3) {
        String value = options.partitionType().literal(random);
        if (!partitionValues.contains(value) && !value.equals("''")) { // Spark stores '' as NULL
          partitionValues.add(value);
        }
      }
      partitionValues.add(nullPartition());
    }
    ddl.append(") USING delta");
    if (options.partitionType() != null) {
      ddl.append(" PARTITIONED BY (").append(q(PART)).append(')');
    }
    ddl.append(" TBLPROPERTIES (").append(properties()).append(')');
    apply("CREATE", ddl.toString());
  }

  private String properties() {
    List<String> props =
        new ArrayList<>(
            List.of(
                prop("delta.enableChangeDataFeed", true),
                prop("delta.enableDeletionVectors", options.deletionVectors())));
    if (!options.columnMapping().equals("none")) {
      props.add(prop("delta.columnMapping.mode", options.columnMapping()));
      props.add(prop("delta.minReaderVersion", 2));
      props.add(prop("delta.minWriterVersion", 5));
    }
    if (options.inCommitTimestamps()) {
      props.add(prop("delta.enableInCommitTimestamps", true));
    }
    if (options.checkpointInterval() > 0) {
      props.add(prop("delta.checkpointInterval", options.checkpointInterval()));
    }
    extraProperties.forEach((key, value) -> props.add(prop(key, value)));
    return String.join(", ", props);
  }

  private void randomOperation() {
    boolean partitioned = options.partitionType() != null;
    List<Operation> choices = new ArrayList<>();
    weigh(choices, "INSERT", 5, () -> insert(1 + random.nextInt(5)));
    weigh(choices, "UPDATE", 4, this::update);
    weigh(choices, "DELETE", 3, () -> "DELETE FROM " + table + " WHERE " + predicate());
    weigh(choices, "MERGE", 4, this::merge);
    weigh(choices, "REPLACE", 2, partitioned ? this::overwritePartition : this::replaceIdRange);
    weigh(choices, "OPTIMIZE", 1, () -> "OPTIMIZE " + table);
    if (partitioned) {
      weigh(
          choices,
          "DELETE_PARTITION",
          1,
          () -> "DELETE FROM " + table + " WHERE " + isPartition(partitionValue()));
    }
    if (addedColumns < 2) {
      weigh(choices, "ADD_COLUMNS", 1, this::addColumn);
    }
    Operation chosen = choices.get(random.nextInt(choices.size()));
    apply(chosen.name(), chosen.sql().get());
  }

  private record Operation(String name, Supplier<String> sql) {}

  /** Adds {@code weight} copies of one operation, so that a uniform pick is weighted. */
  private static void weigh(
      List<Operation> choices, String name, int weight, Supplier<String> sql) {
    choices.addAll(Collections.nCopies(weight, new Operation(name, sql)));
  }

  private String insert(int rows) {
    return "INSERT INTO "
        + table
        + " ("
        + columnList(true)
        + ") VALUES "
        + rows(newIds(rows), this::partitionValue);
  }

  private String update() {
    List<String> names = new ArrayList<>(columns.keySet());
    Collections.shuffle(names, random);
    String set =
        names.subList(0, 1 + random.nextInt(Math.min(2, names.size()))).stream()
            .map(name -> q(name) + " = " + value(name))
            .collect(Collectors.joining(", "));
    return "UPDATE " + table + " SET " + set + " WHERE " + predicate();
  }

  /** Upsert, upsert with deletes, insert-only, delete-only, or a merge that changes nothing. */
  private String merge() {
    String head = "MERGE INTO " + table + " AS t USING ";
    String on = " AS s ON t.`id` = s.`id` ";
    return switch (random.nextInt(5)) {
      case 0 ->
          head
              + source(existingIds(3), 2)
              + on
              + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
      case 1 ->
          head
              + source(existingIds(4), 1)
              + on
              + "WHEN MATCHED AND s.`id` % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET * "
              + "WHEN NOT MATCHED THEN INSERT * WHEN NOT MATCHED BY SOURCE AND t.`id` % 7 = 0 THEN DELETE";
      case 2 -> head + source(existingIds(2), 2) + on + "WHEN NOT MATCHED THEN INSERT *";
      case 3 ->
          head
              + "(SELECT * FROM VALUES "
              + existingIds(3).mapToObj(id -> "(" + id + "L)").collect(Collectors.joining(", "))
              + " AS s(`id`))"
              + on
              + "WHEN MATCHED THEN DELETE";
      // Rows match, so files are touched (and rewritten without DVs), yet no clause fires.
      default ->
          head
              + source(existingIds(3), 1)
              + on
              + "WHEN MATCHED AND s.`id` < 0 THEN UPDATE SET * WHEN NOT MATCHED AND s.`id` < 0 THEN INSERT *";
    };
  }

  /** Replaces one partition's rows, alternating between the two SQL forms. */
  private String overwritePartition() {
    String value = partitionValue();
    if (!value.equals(nullPartition()) && random.nextBoolean()) {
      return "INSERT OVERWRITE "
          + table
          + " PARTITION ("
          + q(PART)
          + " = "
          + constant(value)
          + ") ("
          + columnList(false)
          + ") VALUES "
          + rows(newIds(1 + random.nextInt(3)), () -> null);
    }
    return "INSERT INTO "
        + table
        + " REPLACE WHERE "
        + isPartition(value)
        + " VALUES "
        + rows(newIds(1 + random.nextInt(3)), () -> value);
  }

  /**
   * A partition spec takes constants only: {@code CAST(x AS T)} becomes {@code x}, which Spark
   * casts.
   */
  private static String constant(String literal) {
    return literal.startsWith("CAST(")
        ? literal.substring(5, literal.lastIndexOf(" AS "))
        : literal;
  }

  /** On an unpartitioned table REPLACE WHERE deletes by a data predicate; ids stay unique. */
  private String replaceIdRange() {
    long from = 1 + random.nextInt((int) nextId - 1);
    long to = Math.min(nextId - 1, from + random.nextInt(4));
    LongStream ids =
        LongStream.concat(
            LongStream.of(from),
            LongStream.rangeClosed(from + 1, to).filter(id -> random.nextBoolean()));
    return "INSERT INTO "
        + table
        + " REPLACE WHERE `id` BETWEEN "
        + from
        + " AND "
        + to
        + " VALUES "
        + rows(ids, () -> null);
  }

  private String addColumn() {
    ColumnType type = ColumnType.values()[random.nextInt(ColumnType.values().length)];
    String name = columnName("added_" + ++addedColumns);
    columns.put(name, type);
    return "ALTER TABLE " + table + " ADD COLUMNS (" + q(name) + " " + type.sql() + ")";
  }

  private String predicate() {
    long a = 1 + random.nextInt((int) nextId);
    List<String> names = new ArrayList<>(columns.keySet());
    return switch (random.nextInt(options.partitionType() == null ? 4 : 5)) {
      case 0 -> "`id` % " + (2 + random.nextInt(3)) + " = " + random.nextInt(2);
      case 1 ->
          "`id` IN ("
              + existingIds(3).mapToObj(Long::toString).collect(Collectors.joining(", "))
              + ")";
      case 2 -> "`id` BETWEEN " + a + " AND " + (a + random.nextInt(4));
      case 3 -> q(names.get(random.nextInt(names.size()))) + " IS NULL";
      default -> isPartition(partitionValue());
    };
  }

  /** A MERGE source of full rows: the given ids plus {@code fresh} new ones. */
  private String source(LongStream ids, int fresh) {
    LongStream all = LongStream.concat(ids, newIds(fresh));
    return "(SELECT * FROM VALUES "
        + rows(all, this::partitionValue)
        + " AS s("
        + columnList(true)
        + "))";
  }

  /**
   * VALUES tuples for the ids in table column order; the partition column, if any, takes {@code
   * partition}'s value, or is left out where that is null (a static partition spec gives it).
   */
  private String rows(LongStream ids, Supplier<String> partition) {
    return ids.mapToObj(
            id -> {
              List<String> values = new ArrayList<>(List.of(id + "L"));
              columns.forEach(
                  (name, type) -> {
                    String value = name.equals(PART) ? partition.get() : type.literalOrNull(random);
                    if (value != null) {
                      values.add(value);
                    }
                  });
              return "(" + String.join(", ", values) + ")";
            })
        .collect(Collectors.joining(", "));
  }

  private String columnList(boolean withPartition) {
    List<String> names = new ArrayList<>(List.of("`id`"));
    columns.keySet().stream()
        .filter(n -> withPartition || !n.equals(PART))
        .map(RandomWorkload::q)
        .forEach(names::add);
    return String.join(", ", names);
  }

  private String value(String column) {
    return column.equals(PART) ? partitionValue() : columns.get(column).literalOrNull(random);
  }

  private String partitionValue() {
    return partitionValues.get(random.nextInt(partitionValues.size()));
  }

  private String isPartition(String value) {
    return value.equals(nullPartition()) ? q(PART) + " IS NULL" : q(PART) + " = " + value;
  }

  private String nullPartition() {
    return "CAST(NULL AS " + options.partitionType().sql() + ")";
  }

  private LongStream newIds(int count) {
    long first = nextId;
    nextId += count;
    return LongStream.range(first, nextId);
  }

  /** Up to {@code count} distinct ids already handed out (they may since have been deleted). */
  private LongStream existingIds(int count) {
    return random.longs(count, 1, nextId).distinct();
  }

  /** Column mapping allows names Parquet would reject: use spaces there to exercise it. */
  private String columnName(String base) {
    return options.columnMapping().equals("none") ? base : base.replace('_', ' ');
  }

  private static String q(String name) {
    return "`" + name + "`";
  }

  private static String prop(String key, Object value) {
    return "'" + key + "'='" + value + "'";
  }
}
