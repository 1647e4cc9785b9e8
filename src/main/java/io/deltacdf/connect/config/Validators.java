package io.deltacdf.connect.config;

import io.deltacdf.connect.change.ColumnPatterns;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Single-setting checks, each with a message that says what a valid value looks like. */
final class Validators {

  private Validators() {}

  /**
   * One of the values of {@code type} (see {@link EnumSettings}), in any case; the message and the
   * docs list them as written.
   */
  static <E extends Enum<E>> ConfigDef.Validator oneOf(Class<E> type) {
    List<String> allowed = EnumSettings.values(type);
    return new ConfigDef.Validator() {
      @Override
      public void ensureValid(String name, Object value) {
        String text = value == null ? "" : value.toString().trim().toLowerCase(Locale.ROOT);
        if (!allowed.contains(text)) {
          throw new ConfigException(name, value, "Use one of " + String.join(", ", allowed));
        }
      }

      @Override
      public String toString() {
        return String.join(", ", allowed);
      }
    };
  }

  /** A non-empty list whose items are each one of {@code values}, in any case. */
  static ConfigDef.Validator subsetOf(List<String> values) {
    return subsetOf(values, false);
  }

  /** A list, possibly empty, whose items are each one of {@code values}, in any case. */
  static ConfigDef.Validator optionalSubsetOf(List<String> values) {
    return subsetOf(values, true);
  }

  private static ConfigDef.Validator subsetOf(List<String> values, boolean emptyAllowed) {
    return new ConfigDef.Validator() {
      @Override
      public void ensureValid(String name, Object value) {
        List<?> items = value == null ? List.of() : (List<?>) value;
        List<String> given =
            items.stream()
                .map(v -> v.toString().trim().toLowerCase(Locale.ROOT))
                .filter(v -> !v.isEmpty())
                .toList();
        if ((given.isEmpty() && !emptyAllowed) || !values.containsAll(given)) {
          throw new ConfigException(
              name,
              value,
              (emptyAllowed ? "List none or more of " : "List one or more of ")
                  + String.join(", ", values));
        }
      }

      @Override
      public String toString() {
        return "any of " + String.join(", ", values);
      }
    };
  }

  /**
   * {@code check} with {@code validValues} as its description, which ConfigDocs and the REST API
   * show as the key's valid values (a bare lambda would print as its class name).
   */
  static ConfigDef.Validator described(String validValues, ConfigDef.Validator check) {
    return new ConfigDef.Validator() {
      @Override
      public void ensureValid(String name, Object value) {
        check.ensureValid(name, value);
      }

      @Override
      public String toString() {
        return validValues;
      }
    };
  }

  /** A list of regular expressions that each compile (an empty list is valid). */
  static ConfigDef.Validator regexList() {
    return described(
        "comma-separated regular expressions on table:column",
        (name, value) -> {
          for (Object item : value == null ? List.of() : (List<?>) value) {
            String expression = item.toString().trim();
            try {
              ColumnPatterns.compile(expression);
            } catch (PatternSyntaxException e) {
              throw new ConfigException(
                  name,
                  value,
                  "'"
                      + expression
                      + "' is not a regular expression: "
                      + e.getDescription()
                      + " near index "
                      + e.getIndex()
                      + " (items are separated by commas, so an expression cannot hold one)");
            }
          }
        });
  }

  /** A row filter that parses (blank: none). */
  static ConfigDef.Validator rowFilter() {
    return described(
        "a predicate on partition columns, or empty",
        (name, value) -> {
          try {
            RowFilterParser.parse(value == null ? "" : value.toString());
          } catch (IllegalArgumentException e) {
            // A filter refused for its size would otherwise be echoed whole in the message.
            String text = String.valueOf(value);
            String shown = text.length() > 200 ? text.substring(0, 200) + "..." : text;
            throw new ConfigException(name, shown, e.getMessage());
          }
        });
  }

  /** A topic name in which each of {@code placeholders} stands for a name-safe word. */
  static ConfigDef.Validator topicTemplate(String... placeholders) {
    String named = String.join(", ", placeholders);
    return described(
        "a topic name (letters, digits, '.', '_', '-') that may contain " + named,
        (name, value) -> {
          String sample = value == null ? "" : value.toString();
          for (String placeholder : placeholders) {
            sample = sample.replace(placeholder, "name");
          }
          if (sample.isEmpty() || sample.length() > 249 || !sample.matches("[a-zA-Z0-9._-]+")) {
            throw new ConfigException(
                name,
                value,
                "A topic template yields a valid topic name: letters, digits, '.', '_' and '-',"
                    + " with "
                    + named
                    + " where the names go");
          }
        });
  }

  static ConfigDef.Validator nonNegativeOrNull() {
    return described(
        "[0,...] or unset",
        (name, value) -> {
          if (value != null && (Long) value < 0) {
            throw new ConfigException(name, value, "Commit versions start at 0");
          }
        });
  }

  static ConfigDef.Validator timestamp() {
    String forms =
        "an ISO-8601 instant (2024-05-01T12:00:00Z), a UTC date-time (2024-05-01T12:00:00), a"
            + " UTC date (2024-05-01) or epoch milliseconds";
    return described(
        forms,
        (name, value) -> {
          if (value != null && !value.toString().isBlank()) {
            try {
              parseTimestamp(value.toString());
            } catch (DateTimeParseException e) {
              throw new ConfigException(name, value, "Use " + forms);
            }
          }
        });
  }

  static ConfigDef.Validator keyColumnsByTable() {
    return described(
        "table:col1,col2;table2:col",
        (name, value) -> {
          try {
            parseKeyColumnsByTable(value == null ? "" : value.toString());
          } catch (IllegalArgumentException e) {
            throw new ConfigException(name, value, e.getMessage());
          }
        });
  }

  static Instant parseTimestamp(String value) {
    String text = value.trim();
    if (text.matches("\\d+")) {
      return Instant.ofEpochMilli(Long.parseLong(text));
    }
    if (text.endsWith("Z") || text.matches(".*[+-]\\d\\d:\\d\\d$")) {
      return java.time.OffsetDateTime.parse(text).toInstant();
    }
    if (text.contains("T")) {
      return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    }
    return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
  }

  /** Parses {@code table:col1,col2;table2:col} into table name → columns. */
  static Map<String, List<String>> parseKeyColumnsByTable(String value) {
    Map<String, List<String>> result = new LinkedHashMap<>();
    for (String entry : value.split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      int colon = entry.indexOf(':');
      if (colon <= 0 || colon == entry.length() - 1) {
        throw new IllegalArgumentException(
            "Entry '" + entry.trim() + "' is not table:col1,col2 (entries separated by ';')");
      }
      List<String> columns =
          Arrays.stream(entry.substring(colon + 1).split(","))
              .map(String::trim)
              .filter(s -> !s.isEmpty())
              .toList();
      result.put(entry.substring(0, colon).trim(), columns);
    }
    return result;
  }
}
