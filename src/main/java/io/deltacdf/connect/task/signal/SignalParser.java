package io.deltacdf.connect.task.signal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a signal's JSON value: {@code {"id": "...", "type": "execute-snapshot", "data":
 * {"data-collections": ["<table>"], "additional-conditions": [{"data-collection": "<table>",
 * "filter": "<condition>"}]}}}. Debezium also accepts {@code data} as a JSON string holding the
 * object; so does this parser.
 */
public final class SignalParser {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SignalParser() {}

  /** The signal in {@code value}, read at {@code offset}, or what is wrong with it. */
  public static ReadSignal parse(long offset, String value) {
    JsonNode root;
    try {
      root = value == null ? null : JSON.readTree(value);
    } catch (JsonProcessingException e) {
      return ReadSignal.malformed(offset, null, "its value is not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      return ReadSignal.malformed(
          offset, null, "its value must be a JSON object {\"id\", \"type\", \"data\"}");
    }
    String id = text(root.get("id"));
    if (id == null || id.isBlank()) {
      return ReadSignal.malformed(offset, null, "it has no \"id\"");
    }
    String type = text(root.get("type"));
    Optional<Signal.Action> action = Signal.Action.ofType(type == null ? "" : type.trim());
    if (action.isEmpty()) {
      return ReadSignal.malformed(
          offset,
          id,
          "its type "
              + (type == null ? "is missing" : "'" + type + "' is unknown")
              + ": use execute-snapshot, stop-snapshot, pause or resume");
    }
    JsonNode data = root.get("data");
    if (data != null && data.isTextual()) {
      try {
        data = JSON.readTree(data.asText());
      } catch (JsonProcessingException e) {
        return ReadSignal.malformed(offset, id, "its data is not JSON: " + e.getOriginalMessage());
      }
    }
    if (data == null || !data.isObject()) {
      return ReadSignal.malformed(
          offset, id, "its data must be an object with \"data-collections\", the tables");
    }
    List<String> tables = new ArrayList<>();
    JsonNode collections = data.get("data-collections");
    if (collections != null && collections.isArray()) {
      collections.forEach(table -> tables.add(table.asText()));
    }
    if (tables.isEmpty() || tables.stream().anyMatch(String::isBlank)) {
      return ReadSignal.malformed(
          offset, id, "its data must name the tables in \"data-collections\", a list of strings");
    }
    Map<String, String> filters = new LinkedHashMap<>();
    JsonNode conditions = data.get("additional-conditions");
    if (conditions != null) {
      if (!conditions.isArray()) {
        return ReadSignal.malformed(
            offset,
            id,
            "\"additional-conditions\" must be a list of {\"data-collection\", \"filter\"}");
      }
      for (JsonNode condition : conditions) {
        String table = text(condition.get("data-collection"));
        String filter = text(condition.get("filter"));
        if (table == null || filter == null || !tables.contains(table)) {
          return ReadSignal.malformed(
              offset,
              id,
              "each of \"additional-conditions\" needs a \"data-collection\" named in"
                  + " \"data-collections\" and a \"filter\"");
        }
        filters.put(table, filter);
      }
      if (!filters.isEmpty() && action.get() != Signal.Action.EXECUTE_SNAPSHOT) {
        return ReadSignal.malformed(
            offset, id, "only execute-snapshot takes \"additional-conditions\"");
      }
    }
    return ReadSignal.of(new Signal(offset, id, action.get(), tables, filters));
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() || node.isContainerNode() ? null : node.asText();
  }
}
