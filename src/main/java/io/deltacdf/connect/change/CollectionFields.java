package io.deltacdf.connect.change;

import java.util.ArrayList;
import java.util.List;

/**
 * The paths a column rule could use to name something inside an array or a map, which the rules do
 * not reach: an array's elements as {@code items.element} and their fields both as {@code
 * items.card} and {@code items.element.card}; a map's keys and values as {@code attrs.key} and
 * {@code attrs.value}, their fields below those.
 */
public final class CollectionFields {

  private CollectionFields() {}

  /**
   * The paths inside the array or map at {@code path}; none for other types.
   *
   * @param path the field's name, after the names of the structs it is nested in
   */
  public static List<List<String>> inside(List<String> path, FieldType type) {
    List<List<String>> paths = new ArrayList<>();
    if (type instanceof FieldType.Array || type instanceof FieldType.MapType) {
      below(paths, path, type);
    }
    return paths;
  }

  private static void below(List<List<String>> paths, List<String> path, FieldType type) {
    if (type instanceof FieldType.Struct struct) {
      for (FieldType.Field field : struct.fields()) {
        at(paths, child(path, field.name()), field.type());
      }
    } else if (type instanceof FieldType.Array array) {
      at(paths, child(path, "element"), array.elementType());
      below(paths, path, array.elementType());
    } else if (type instanceof FieldType.MapType map) {
      at(paths, child(path, "key"), map.keyType());
      at(paths, child(path, "value"), map.valueType());
    }
  }

  private static void at(List<List<String>> paths, List<String> path, FieldType type) {
    paths.add(path);
    below(paths, path, type);
  }

  private static List<String> child(List<String> parent, String name) {
    List<String> path = new ArrayList<>(parent);
    path.add(name);
    return List.copyOf(path);
  }
}
