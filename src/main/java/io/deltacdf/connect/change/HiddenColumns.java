package io.deltacdf.connect.change;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The columns of one table that its column rules hid, by identity: each one masked (null, hash or
 * truncate) or left out, under whatever name it has now. A column's identity is the path of
 * physical names from its top-level column down ({@link FieldType.Field#physicalName()}): under
 * column mapping that stays the same through a rename; without column mapping a column cannot be
 * renamed, and its name is its identity.
 *
 * <p>This is the seam that keeps a hidden column hidden across restarts. A table is opened with a
 * seed ({@link #NONE} for a stream that never ran); the rules of its stream ({@link
 * ColumnSelection}, the converter's masks) share one {@link HiddenColumnsTracker} that starts from
 * the seed and grows with every column a rule matches in a schema the stream reads. Whoever stores
 * the stream's position reads {@link HiddenColumnsTracker#current()} and stores {@link #toList()}
 * beside it (a list of strings, fit for a JSON offset map); {@link #fromList} reads it back into
 * the next seed. The list is sorted, so the same set always encodes the same way.
 *
 * @param rules each hidden column's identity and the strongest rule that hid it
 */
public record HiddenColumns(Map<List<String>, Rule> rules) {

  /** What hides a column, strongest first: a column left out is not read at all. */
  public enum Rule {
    EXCLUDED,
    NULL,
    HASH,
    TRUNCATE;

    String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** No column hidden yet. */
  public static final HiddenColumns NONE = new HiddenColumns(Map.of());

  public HiddenColumns {
    Map<List<String>, Rule> copy = new HashMap<>();
    rules.forEach((identity, rule) -> copy.put(List.copyOf(identity), rule));
    rules = Map.copyOf(copy);
  }

  /** The rule that hid the column of {@code identity}, or null when none did. */
  public Rule ruleOf(List<String> identity) {
    return rules.get(identity);
  }

  /** Whether the column of {@code identity} is left out. */
  public boolean excludes(List<String> identity) {
    return rules.get(identity) == Rule.EXCLUDED;
  }

  /**
   * This set with the column of {@code identity} hidden by {@code rule} too (the strongest wins).
   */
  public HiddenColumns with(List<String> identity, Rule rule) {
    Rule known = rules.get(identity);
    if (known != null && known.compareTo(rule) <= 0) {
      return this;
    }
    Map<List<String>, Rule> grown = new HashMap<>(rules);
    grown.put(identity, rule);
    return new HiddenColumns(grown);
  }

  /**
   * One string per column, sorted: {@code <rule>:<identity>}, the rule as {@code excluded}, {@code
   * null}, {@code hash} or {@code truncate}, the identity's names joined with '.', a '.' or '\'
   * inside a name escaped with '\'. Example: {@code hash:col-5f1c0d1e-...}.
   */
  public List<String> toList() {
    List<String> encoded = new ArrayList<>(rules.size());
    rules.forEach((identity, rule) -> encoded.add(rule.code() + ":" + encode(identity)));
    encoded.sort(null);
    return encoded;
  }

  /**
   * Reads back what {@link #toList()} wrote.
   *
   * @throws IllegalArgumentException naming an entry that is not of that form
   */
  public static HiddenColumns fromList(List<String> encoded) {
    HiddenColumns hidden = NONE;
    for (String entry : encoded) {
      int colon = entry.indexOf(':');
      Rule rule = colon < 0 ? null : ruleOf(entry.substring(0, colon));
      if (rule == null || colon == entry.length() - 1) {
        throw new IllegalArgumentException(
            "Hidden column entry '"
                + entry
                + "' is not <rule>:<column>, the rule one of excluded, null, hash, truncate");
      }
      hidden = hidden.with(decode(entry.substring(colon + 1), entry), rule);
    }
    return hidden;
  }

  private static Rule ruleOf(String code) {
    for (Rule rule : Rule.values()) {
      if (rule.code().equals(code)) {
        return rule;
      }
    }
    return null;
  }

  private static String encode(List<String> identity) {
    StringBuilder text = new StringBuilder();
    for (String name : identity) {
      if (!text.isEmpty()) {
        text.append('.');
      }
      text.append(name.replace("\\", "\\\\").replace(".", "\\."));
    }
    return text.toString();
  }

  private static List<String> decode(String text, String entry) {
    List<String> names = new ArrayList<>();
    StringBuilder name = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        if (++i == text.length()) {
          throw new IllegalArgumentException(
              "Hidden column entry '" + entry + "' ends with a lone '\\'");
        }
        name.append(text.charAt(i));
      } else if (c == '.') {
        names.add(name.toString());
        name.setLength(0);
      } else {
        name.append(c);
      }
    }
    names.add(name.toString());
    return names;
  }
}
