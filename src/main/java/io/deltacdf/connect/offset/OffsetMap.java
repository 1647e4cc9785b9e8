package io.deltacdf.connect.offset;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An offset's entries in the order they were added, kept in two arrays. Every record carries one,
 * and a {@code LinkedHashMap} of the usual four entries costs ~0.2 KB more. Connect reads offsets
 * through the {@link Map} interface only and stores them in iteration order, so an offset stores as
 * the same bytes as a {@code LinkedHashMap} with the same entries. Unmodifiable once handed out.
 */
final class OffsetMap extends AbstractMap<String, Object> {

  private String[] keys = new String[6];
  private Object[] values = new Object[6];
  private int size;

  /** Adds an entry; {@code key} is not in the map yet (the codec adds each key once). */
  void add(String key, Object value) {
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    keys[size] = key;
    values[size] = value;
    size++;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public Object get(Object key) {
    int index = indexOf(key);
    return index < 0 ? null : values[index];
  }

  private int indexOf(Object key) {
    for (int i = 0; i < size; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < size;
          }

          @Override
          public Entry<String, Object> next() {
            if (next >= size) {
              throw new NoSuchElementException();
            }
            Entry<String, Object> entry = new SimpleImmutableEntry<>(keys[next], values[next]);
            next++;
            return entry;
          }
        };
      }
    };
  }
}
