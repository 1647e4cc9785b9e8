package io.deltacdf.connect.config;

import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_EXCLUDE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_INCLUDE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_MASK_HASH;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_MASK_HASH_ENCODING;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_MASK_HASH_SALT;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_MASK_NULL;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_MASK_TRUNCATE;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.COLUMN_MASK_TRUNCATE_CHARS;
import static io.deltacdf.connect.config.DeltaCdfSourceConfig.ROW_FILTER;

import io.deltacdf.connect.change.ColumnPatterns;
import io.deltacdf.connect.change.ColumnSelection;
import io.deltacdf.connect.change.RowFilter;
import io.deltacdf.connect.convert.ColumnMasks;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/**
 * The settings of the Columns and rows group: which columns leave the lake, which of them masked,
 * and which partitions' rows. Column settings name columns by regular expressions on {@code
 * table:column}, as Debezium's column lists do.
 */
final class ColumnOptions {

  private static final String PATTERNS =
      " Comma-separated regular expressions, each matched whole and ignoring case against"
          + " table:column, where table is the last segment of the table's path and a nested"
          + " field is named by its dotted path (orders:address.zip).";

  private ColumnOptions() {}

  static void define(ConfigDef def, String group) {
    int order = 0;
    def.define(
        COLUMN_INCLUDE,
        Type.LIST,
        "",
        Validators.regexList(),
        Importance.MEDIUM,
        "The columns records carry; empty = all."
            + PATTERNS
            + " Other columns are not read from the data files. Naming a struct keeps it whole,"
            + " naming a nested field keeps only that field of its struct. A column added later"
            + " is carried only if a pattern names it. Key columns must be included.",
        group,
        ++order,
        Width.LONG,
        "Included columns");
    def.define(
        COLUMN_EXCLUDE,
        Type.LIST,
        "",
        Validators.regexList(),
        Importance.MEDIUM,
        "The columns records leave out, when column.include.list is empty."
            + PATTERNS
            + " They are not read from the data files. A column added later is left out if a"
            + " pattern names it. Patterns match a column's current name: after a rename,"
            + " the pattern must match the new name too. Key columns cannot be excluded.",
        group,
        ++order,
        Width.LONG,
        "Excluded columns");
    def.define(
        COLUMN_MASK_HASH,
        Type.LIST,
        "",
        Validators.regexList(),
        Importance.MEDIUM,
        "Columns whose values leave as their keyed hash (HMAC-SHA-256 with"
            + " column.mask.hash.salt), a string in column.mask.hash.encoding; the same value"
            + " always gives the same hash, so hashed keys stay joinable. For string, binary,"
            + " integer, decimal and date columns (numbers and dates are hashed as their text)."
            + " A hashed key column is hashed in the key too."
            + PATTERNS,
        group,
        ++order,
        Width.LONG,
        "Hashed columns");
    def.define(
        COLUMN_MASK_HASH_SALT,
        Type.PASSWORD,
        null,
        Importance.MEDIUM,
        "The secret key of the column hash; needed with column.mask.hash.list. Give it through a"
            + " config provider (${file:...} or ${env:...}) so that GET /connectors shows only"
            + " the reference; the connector never logs it. Changing it changes every hash.",
        group,
        ++order,
        Width.MEDIUM,
        "Hash salt");
    def.define(
        COLUMN_MASK_HASH_ENCODING,
        Type.STRING,
        EnumSettings.valueOf(ColumnMasks.Encoding.HEX),
        Validators.oneOf(ColumnMasks.Encoding.class),
        Importance.LOW,
        "How hashes are written: hex (64 lower-case characters) or base64 (44 characters).",
        group,
        ++order,
        Width.SHORT,
        "Hash encoding");
    def.define(
        COLUMN_MASK_TRUNCATE,
        Type.LIST,
        "",
        Validators.regexList(),
        Importance.MEDIUM,
        "String columns whose values leave cut to their first column.mask.truncate.chars"
            + " characters. Not for key columns."
            + PATTERNS,
        group,
        ++order,
        Width.LONG,
        "Truncated columns");
    def.define(
        COLUMN_MASK_TRUNCATE_CHARS,
        Type.INT,
        0,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        "How many characters (Unicode code points) truncated columns keep; at least 1 with"
            + " column.mask.truncate.list.",
        group,
        ++order,
        Width.SHORT,
        "Truncated length");
    def.define(
        COLUMN_MASK_NULL,
        Type.LIST,
        "",
        Validators.regexList(),
        Importance.MEDIUM,
        "Columns whose values leave as null (the field stays, optional). Not for key columns."
            + PATTERNS,
        group,
        ++order,
        Width.LONG,
        "Nulled columns");
    defineRowFilter(def, group, ++order);
  }

  static void defineRowFilter(ConfigDef def, String group, int order) {
    def.define(
        ROW_FILTER,
        Type.STRING,
        "",
        Validators.rowFilter(),
        Importance.MEDIUM,
        "Only rows of the partitions this predicate passes, for every table: a SQL subset on"
            + " partition columns (=, !=, <, <=, >, >=, [NOT] IN (...), IS [NOT] NULL, AND, OR,"
            + " NOT, parentheses; 'quoted' strings, dates and timestamps, numbers, TRUE, FALSE),"
            + " e.g. region IN ('eu', 'uk') AND day >= '2026-01-01'. Files of other partitions"
            + " are never read. An update that moves a row out of the filter shows its pre-image"
            + " only, one that moves it in its post-image only, as Spark's table_changes with"
            + " the same WHERE. Empty = every row.",
        group,
        order,
        Width.LONG,
        "Row filter");
  }

  /** The partitions whose rows are read. */
  static RowFilter rowFilter(DeltaCdfSourceConfig config) {
    return RowFilterParser.parse(config.getString(ROW_FILTER));
  }

  /** The columns {@code tablePath}'s records carry. */
  static ColumnSelection selection(DeltaCdfSourceConfig config, String tablePath) {
    String table = TableNames.nameOf(tablePath);
    return new ColumnSelection(
        patterns(config, COLUMN_INCLUDE, table), patterns(config, COLUMN_EXCLUDE, table));
  }

  /** The masks of {@code tablePath}'s columns: a new instance for each converter. */
  static ColumnMasks masks(DeltaCdfSourceConfig config, String tablePath) {
    String table = TableNames.nameOf(tablePath);
    Password salt = config.getPassword(COLUMN_MASK_HASH_SALT);
    return new ColumnMasks(
        tablePath,
        patterns(config, COLUMN_MASK_NULL, table),
        patterns(config, COLUMN_MASK_HASH, table),
        patterns(config, COLUMN_MASK_TRUNCATE, table),
        config.getInt(COLUMN_MASK_TRUNCATE_CHARS),
        salt == null ? null : salt.value(),
        EnumSettings.parse(
            ColumnMasks.Encoding.class, config.getString(COLUMN_MASK_HASH_ENCODING)));
  }

  private static ColumnPatterns patterns(DeltaCdfSourceConfig config, String key, String table) {
    List<String> expressions =
        config.getList(key).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    return ColumnPatterns.of(table, expressions);
  }

  /**
   * Column settings that do not fit together or with the key columns: both lists set, a key column
   * left out, nulled or truncated, a hash without salt, a truncation without length.
   */
  static void problems(DeltaCdfSourceConfig config, Map<String, List<String>> problems) {
    if (!config.getList(COLUMN_INCLUDE).isEmpty() && !config.getList(COLUMN_EXCLUDE).isEmpty()) {
      DeltaCdfSourceConfig.add(
          problems,
          COLUMN_EXCLUDE,
          "Set column.include.list or column.exclude.list, not both: an include list already"
              + " leaves out every column it does not name");
    }
    if (!config.getList(COLUMN_MASK_HASH).isEmpty()
        && (config.getPassword(COLUMN_MASK_HASH_SALT) == null
            || config.getPassword(COLUMN_MASK_HASH_SALT).value().isEmpty())) {
      DeltaCdfSourceConfig.add(
          problems,
          COLUMN_MASK_HASH_SALT,
          "column.mask.hash.list needs a secret salt: set column.mask.hash.salt, through a"
              + " config provider such as ${file:/etc/kafka/secrets.properties:salt}");
    }
    if (!config.getList(COLUMN_MASK_TRUNCATE).isEmpty()
        && config.getInt(COLUMN_MASK_TRUNCATE_CHARS) < 1) {
      DeltaCdfSourceConfig.add(
          problems,
          COLUMN_MASK_TRUNCATE_CHARS,
          "column.mask.truncate.list needs column.mask.truncate.chars of at least 1");
    }
    for (String tablePath : config.namedTables()) {
      String table = TableNames.nameOf(tablePath);
      ColumnSelection selection = selection(config, tablePath);
      ColumnPatterns nulled = patterns(config, COLUMN_MASK_NULL, table);
      ColumnPatterns truncated = patterns(config, COLUMN_MASK_TRUNCATE, table);
      ColumnPatterns hashed = patterns(config, COLUMN_MASK_HASH, table);
      for (String key : config.keyColumnsFor(tablePath)) {
        List<String> path = List.of(key);
        if (!selection.keeps(key)) {
          DeltaCdfSourceConfig.add(
              problems,
              config.getList(COLUMN_INCLUDE).isEmpty() ? COLUMN_EXCLUDE : COLUMN_INCLUDE,
              "Key column '"
                  + key
                  + "' of table "
                  + tablePath
                  + " would be left out: records are keyed by it, so "
                  + (config.getList(COLUMN_INCLUDE).isEmpty()
                      ? "no pattern may name " + table + ":" + key
                      : "a pattern must name " + table + ":" + key));
        }
        if (nulled.matches(path)) {
          DeltaCdfSourceConfig.add(
              problems,
              COLUMN_MASK_NULL,
              "Key column '"
                  + key
                  + "' of table "
                  + tablePath
                  + " cannot be nulled: a key"
                  + " must tell rows apart; hash it with column.mask.hash.list instead");
        } else if (truncated.matches(path) && !hashed.matches(path)) {
          DeltaCdfSourceConfig.add(
              problems,
              COLUMN_MASK_TRUNCATE,
              "Key column '"
                  + key
                  + "' of table "
                  + tablePath
                  + " cannot be truncated: keys"
                  + " that share a prefix would merge; hash it with column.mask.hash.list"
                  + " instead");
        }
      }
    }
  }
}
