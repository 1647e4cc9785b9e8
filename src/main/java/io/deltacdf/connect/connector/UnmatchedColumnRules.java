package io.deltacdf.connect.connector;

import io.deltacdf.connect.change.CollectionFields;
import io.deltacdf.connect.change.ColumnPatterns;
import io.deltacdf.connect.change.FieldType;
import io.deltacdf.connect.config.DeltaCdfSourceConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Column rules that name no column: a pattern of a column or mask list that matches no field of any
 * table the connector streams (as validation found them, at their start and latest schemas) is
 * almost always a typo, which would leave the column it meant in clear.
 */
final class UnmatchedColumnRules {

  private static final List<String> SETTINGS =
      List.of(
          DeltaCdfSourceConfig.COLUMN_INCLUDE,
          DeltaCdfSourceConfig.COLUMN_EXCLUDE,
          DeltaCdfSourceConfig.COLUMN_MASK_NULL,
          DeltaCdfSourceConfig.COLUMN_MASK_HASH,
          DeltaCdfSourceConfig.COLUMN_MASK_TRUNCATE);

  /** Every field as the rules name it: {@code table:column}, {@code table:struct.field}. */
  private final Set<String> fields = new LinkedHashSet<>();

  private final Set<String> tables = new LinkedHashSet<>();

  /** Learns the fields of one schema of the table named {@code table} (its short name). */
  void add(String table, FieldType.Struct schema) {
    tables.add(table);
    add(table, schema, List.of());
  }

  private void add(String table, FieldType.Struct schema, List<String> parent) {
    for (FieldType.Field field : schema.fields()) {
      List<String> path = new ArrayList<>(parent);
      path.add(field.name());
      fields.add(table + ":" + String.join(".", path));
      if (field.type() instanceof FieldType.Struct struct) {
        add(table, struct, path);
      }
      for (List<String> inner : CollectionFields.inside(path, field.type())) {
        fields.add(table + ":" + String.join(".", inner));
      }
    }
  }

  /** Per setting, a message for each of its patterns that names no field learnt. */
  Map<String, List<String>> problems(DeltaCdfSourceConfig config) {
    Map<String, List<String>> problems = new LinkedHashMap<>();
    for (String setting : SETTINGS) {
      for (String expression : config.getList(setting)) {
        if (expression.isBlank() || matchesAny(ColumnPatterns.compile(expression))) {
          continue;
        }
        problems
            .computeIfAbsent(setting, key -> new ArrayList<>())
            .add(
                "Pattern '"
                    + expression.trim()
                    + "' matches no column of the tables streamed ("
                    + String.join(", ", tables)
                    + "): check it for a typo. Columns are named <table>:<column>, a nested"
                    + " field by its dotted path, e.g. "
                    + fields.iterator().next());
      }
    }
    return problems;
  }

  private boolean matchesAny(Pattern pattern) {
    return fields.stream().anyMatch(field -> pattern.matcher(field).matches());
  }
}
