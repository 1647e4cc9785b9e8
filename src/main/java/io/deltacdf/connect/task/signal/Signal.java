package io.deltacdf.connect.task.signal;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A signal read from the signal topic, in Debezium's shape: an id, a type, and data naming the
 * tables (data-collections) it acts on.
 *
 * @param offset where in the signal topic it was read
 * @param tables the tables it names, as delta.table.paths (or unity.catalog.tables) names them
 * @param filters for execute-snapshot, the condition on partition columns of a table's snapshot, by
 *     table (additional-conditions)
 */
public record Signal(
    long offset, String id, Action action, List<String> tables, Map<String, String> filters) {

  public Signal {
    tables = List.copyOf(tables);
    filters = Map.copyOf(filters);
  }

  /** What a signal asks for. */
  public enum Action {
    EXECUTE_SNAPSHOT,
    STOP_SNAPSHOT,
    PAUSE,
    RESUME;

    /** The type as signals spell it, such as execute-snapshot. */
    public String type() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Optional<Action> ofType(String type) {
      for (Action action : values()) {
        if (action.type().equals(type)) {
          return Optional.of(action);
        }
      }
      return Optional.empty();
    }
  }

  /** The type as the signal spelled it. */
  public String type() {
    return action.type();
  }
}
