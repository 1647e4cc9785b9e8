package io.deltacdf.connect.testing;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/** Connect's offset reader over a map that a test fills, as the offsets topic would hold them. */
public final class StoredOffsets implements OffsetStorageReader {

  private final Map<Map<String, ?>, Map<String, Object>> stored = new HashMap<>();
  private int lookups;

  /** Stores {@code offset} for {@code partition}, replacing what was stored, as Connect does. */
  public StoredOffsets put(Map<String, ?> partition, Map<String, ?> offset) {
    stored.put(Map.copyOf(partition), Collections.unmodifiableMap(new HashMap<>(offset)));
    return this;
  }

  /** The offset stored for {@code partition}, or null; not counted as a lookup. */
  public Map<String, Object> stored(Map<String, ?> partition) {
    return stored.get(partition);
  }

  /** How many partitions were looked up so far. */
  public int lookups() {
    return lookups;
  }

  @Override
  public <T> Map<String, Object> offset(Map<String, T> partition) {
    lookups++;
    return stored.get(partition);
  }

  @Override
  public <T> Map<Map<String, T>, Map<String, Object>> offsets(
      Collection<Map<String, T>> partitions) {
    Map<Map<String, T>, Map<String, Object>> found = new HashMap<>();
    for (Map<String, T> partition : partitions) {
      lookups++;
      if (stored.containsKey(partition)) {
        found.put(partition, stored.get(partition));
      }
    }
    return found;
  }
}
